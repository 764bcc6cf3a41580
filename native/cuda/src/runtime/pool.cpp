#include "runtime/pool.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cuzk {

unsigned hardware_threads() {
    static const unsigned n = [] {
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof(set), &set) == 0) {
            int c = CPU_COUNT(&set);
            if (c > 0) return (unsigned)c;
        }
        unsigned h = std::thread::hardware_concurrency();
        return h ? h : 1u;
    }();
    return n;
}

unsigned resolve_threads(unsigned requested) {
    unsigned hw = hardware_threads();
    if (requested == 0 || requested > hw) return hw;
    return requested;
}

namespace {

struct Job {
    std::atomic<size_t> next{0};
    size_t count = 0;
    const std::function<void(size_t)>* fn = nullptr;
    std::atomic<bool> failed{false};
    std::mutex m;
    std::condition_variable done_cv;
    int active = 0;  // helpers that took a ticket and have not finished; guarded by m
    std::exception_ptr error;

    void work() {
        for (;;) {
            if (failed.load(std::memory_order_relaxed)) return;
            size_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= count) return;
            try {
                (*fn)(i);
            } catch (...) {
                std::lock_guard<std::mutex> g(m);
                if (!error) error = std::current_exception();
                failed.store(true);
            }
        }
    }
};

class Pool {
public:
    static Pool& instance() {
        // Leaked on purpose: pool threads may still be parked when static destructors run.
        static Pool* p = new Pool();
        return *p;
    }

    void run(unsigned threads, Job& job) {
        unsigned helpers = threads - 1;
        {
            std::unique_lock<std::mutex> g(m_);
            ensure_threads(helpers);
            for (unsigned i = 0; i < helpers; i++) tickets_.push_back(&job);
        }
        if (helpers == 1) cv_.notify_one();
        else cv_.notify_all();
        job.work();
        {
            // Withdraw tickets nobody took; helpers register under this same lock, so no new
            // helper can join the job after this point.
            std::lock_guard<std::mutex> g(m_);
            tickets_.erase(std::remove(tickets_.begin(), tickets_.end(), &job), tickets_.end());
        }
        std::unique_lock<std::mutex> g(job.m);
        job.done_cv.wait(g, [&] { return job.active == 0; });
    }

private:
    void ensure_threads(unsigned wanted) {
        while (workers_ < wanted) {
            std::thread([this] { loop(); }).detach();
            workers_++;
        }
    }

    void loop() {
        for (;;) {
            Job* job;
            {
                std::unique_lock<std::mutex> g(m_);
                cv_.wait(g, [&] { return !tickets_.empty(); });
                job = tickets_.front();
                tickets_.pop_front();
                std::lock_guard<std::mutex> jg(job->m);
                job->active++;
            }
            job->work();
            std::lock_guard<std::mutex> jg(job->m);
            if (--job->active == 0) job->done_cv.notify_all();
        }
    }

    std::mutex m_;
    std::condition_variable cv_;
    std::deque<Job*> tickets_;
    unsigned workers_ = 0;
};

}  // namespace

void parallel_for(unsigned threads, size_t count, const std::function<void(size_t)>& fn) {
    if (count == 0) return;
    threads = resolve_threads(threads);
    if (threads > count) threads = (unsigned)count;
    if (threads <= 1) {
        for (size_t i = 0; i < count; i++) fn(i);
        return;
    }
    Job job;
    job.count = count;
    job.fn = &fn;
    Pool::instance().run(threads, job);
    if (job.error) std::rethrow_exception(job.error);
}

}  // namespace cuzk

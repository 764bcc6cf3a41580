// The daemon's status page: polls /api/status, /api/utilization and /api/timeline once a second and
// draws, per device, its busy share per 0.2 s and each partition as a bar on the lane of the worker
// that proved it, so chains and idle gaps show at a glance. No framework: uPlot draws the charts.
(() => {
  'use strict';

  const PHASES = { // colour, and how much of the lane's height the bar leaves free above and below
    synthesis: ['#76b7b2', 0.12], handoff: ['#f28e2b', 0.3], H: ['#4e79a7', 0.05], MSMs: ['#59a14f', 0.05],
    device: ['#59a14f', 0.05], finish: ['#e15759', 0.3], finalize: ['#b07aa1', 0.12],
  };
  const POLL_MS = 1000;
  const AXIS = 150; // the y axes' width, the same on every chart so that their times line up
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

  // what the page shows, kept where a test (and a curious operator's console) can read it
  const page = {
    windowSeconds: Number($('#window').value),
    token: sessionStorage.getItem('cuzk-token'),
    status: null,          // the last /api/status
    utilization: {},       // device -> {x: [...], y: [...]}
    intervals: new Map(),  // worker -> Map(job/partition/phase -> {phase, job, partition, start, end}), absolute seconds
    devices: {},           // device -> [its workers]
    charts: {},            // id -> uPlot
    xr: {},                // chart id -> its x range now
    drawn: {},             // lanes chart id -> bars drawn in its last draw
    polls: 0,
    errors: 0,
    lastTimeline: 0,
  };
  window.cuzkPage = page;
  page.snapshot = () => ({
    polls: page.polls,
    errors: page.errors,
    status: page.status,
    devices: Object.fromEntries(Object.entries(page.utilization).map(([d, u]) => [d, {
      points: u.y.filter(v => v != null).length,
      busyPoints: u.y.filter(v => v > 0).length,
      workers: page.devices[d] || [],
    }])),
    lanes: Object.fromEntries(Array.from(page.intervals, ([w, m]) => [w, m.size])),
    drawn: { ...page.drawn },
    shown: Object.fromEntries($$('[data-count]').map(td => [td.dataset.count, td.textContent])),
  });

  // ---- fetching --------------------------------------------------------------------------------
  async function api(path) {
    const headers = page.token ? { Authorization: 'Bearer ' + page.token } : {};
    const r = await fetch(path, { headers, cache: 'no-store' });
    if (r.status === 401) {
      $('#token-form').hidden = false;
      throw new Error('this daemon needs its bearer token');
    }
    if (!r.ok) {
      throw new Error(path + ': HTTP ' + r.status);
    }
    return r.json();
  }

  $('#token-form').addEventListener('submit', e => {
    e.preventDefault();
    page.token = $('#token').value.trim();
    sessionStorage.setItem('cuzk-token', page.token);
    $('#token-form').hidden = true;
    poll();
  });
  $('#window').addEventListener('change', () => {
    page.windowSeconds = Number($('#window').value);
    page.lastTimeline = 0; // fetch the whole new window
    poll();
  });

  let timer = null;
  async function poll() {
    clearTimeout(timer);
    if (!$('#pause').checked) {
      try {
        const [status, util] = await Promise.all([api('/api/status'), api('/api/utilization?seconds=' + page.windowSeconds)]);
        const now = Date.now() / 1000;
        // partitions enter the timeline when finalized: ask again for a margin of the last poll's
        const since = page.lastTimeline ? Math.min(page.windowSeconds, now - page.lastTimeline + 5) : page.windowSeconds;
        const timeline = await api('/api/timeline?since=' + since.toFixed(1));
        const received = Date.now() / 1000;
        page.lastTimeline = received;
        merge(timeline, received);
        page.status = status;
        page.polls++;
        setUtilization(util, received);
        render(status, received);
        connection(true, '');
      } catch (e) {
        page.errors++;
        connection(false, e.message);
      }
    }
    timer = setTimeout(poll, POLL_MS);
  }
  $('#pause').addEventListener('change', poll);

  function connection(ok, why) {
    const c = $('#conn');
    c.textContent = ok ? 'live' : 'no data: ' + why;
    c.className = 'badge ' + (ok ? 'ok' : 'bad');
  }

  // ---- the data --------------------------------------------------------------------------------
  function merge(timeline, received) {
    const horizon = received - page.windowSeconds - 2;
    for (const [worker, list] of Object.entries(timeline.workers || {})) {
      let m = page.intervals.get(worker);
      if (!m) {
        m = new Map();
        page.intervals.set(worker, m);
      }
      for (const iv of list) {
        const key = iv.job + '/' + iv.partition + '/' + iv.phase;
        if (!m.has(key)) { // the first sighting keeps its times: no jitter between polls
          m.set(key, { phase: iv.phase, job: iv.job, partition: iv.partition, start: received + iv.start, end: received + iv.end });
        }
      }
    }
    for (const m of page.intervals.values()) {
      for (const [k, iv] of m) {
        if (iv.end < horizon) {
          m.delete(k);
        }
      }
    }
    for (const [device, workers] of Object.entries(timeline.devices || {})) {
      const known = new Set(page.devices[device] || []);
      workers.forEach(w => known.add(w));
      page.devices[device] = Array.from(known).sort();
    }
  }

  function setUtilization(util, received) {
    const step = util.step;
    for (const [device, bins] of Object.entries(util.devices)) {
      const x = bins.map((_, i) => received - (bins.length - i) * step); // each bin's start
      page.utilization[device] = { x, y: bins };
    }
  }

  // ---- drawing ---------------------------------------------------------------------------------
  const fmtBytes = v => {
    v = Number(v || 0);
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    while (v >= 1024 && i < units.length - 1) {
      v /= 1024;
      i++;
    }
    return (i === 0 ? v.toFixed(0) : v.toFixed(1)) + ' ' + units[i];
  };
  const pct = v => (100 * Number(v || 0)).toFixed(1) + ' %';
  const ms = v => Number(v || 0).toFixed(2) + ' ms';

  function render(s, now) {
    $('#version').textContent = s.version ? 'v' + s.version : '';
    $('#uptime').textContent = 'up ' + Math.round(Number(s.uptimeSeconds || 0)) + ' s';
    $('#draining').hidden = !s.draining;
    const parts = s.partitions || {};
    for (const td of $$('[data-count]')) {
      const k = td.dataset.count;
      td.textContent = String(Number(k in parts ? parts[k] : (s[k] ?? 0)));
    }
    const mem = s.memory || {};
    for (const el of $$('[data-memory]')) {
      el.textContent = fmtBytes(mem[el.dataset.memory]);
    }
    const budget = Number(mem.budgetBytes || 0);
    $('#budget-meter').value = budget ? Number(mem.budgetUsedBytes || 0) / budget : 0;
    const keys = $('#keys');
    keys.replaceChildren(...(s.residentKeys || []).map(k => {
      const li = document.createElement('li');
      li.textContent = k.name + ' (' + k.curve + ', 2^' + Math.log2(k.domainSize) + ')';
      return li;
    }));
    if (!keys.children.length) {
      keys.textContent = 'none yet';
    }
    for (const d of s.devices || []) {
      deviceSection(d, now);
    }
    hostLanes(now);
    jobs(s.jobs || []);
  }

  function deviceSection(d, now) {
    const id = 'device-' + d.name;
    let sec = document.getElementById(id);
    if (!sec) {
      sec = $('#device-template').content.firstElementChild.cloneNode(true);
      sec.id = id;
      sec.dataset.device = d.name;
      $('.device-name', sec).textContent = d.name;
      $('#devices').appendChild(sec);
    }
    const gaps = d.gapsMs || {};
    const values = {
      partitions: Number(d.partitions || 0), utilization: pct(d.utilization), recentUtilization: pct(d.recentUtilization),
      gapP50: ms(gaps.p50), gapP99: ms(gaps.p99), gapMax: ms(gaps.max), longestChain: Number(d.longestChain || 0),
      busySeconds: Number(d.busySeconds || 0).toFixed(1) + ' s',
    };
    for (const td of $$('[data-device]', sec)) {
      td.textContent = values[td.dataset.device];
    }
    const u = page.utilization[d.name] || { x: [], y: [] };
    utilizationChart(id + '-util', $('.utilization', sec), u, now);
    lanesChart(id + '-lanes', $('.lanes', sec), page.devices[d.name] || [], now);
  }

  function width(el) {
    return Math.max(300, el.clientWidth || 800);
  }

  function xRange(now) {
    return [now - page.windowSeconds, now];
  }

  function utilizationChart(id, el, u, now) {
    let chart = page.charts[id];
    page.xr[id] = xRange(now);
    if (!chart) {
      chart = new uPlot({
        width: width(el), height: 160,
        cursor: { sync: { key: 'cuzk' }, drag: { x: false, y: false } }, // the window selector zooms; a drag would last one poll
        scales: { x: { time: true, range: () => page.xr[id] }, y: { auto: false, range: [0, 1] } },
        axes: [{}, { values: (self, ticks) => ticks.map(t => Math.round(t * 100) + '%'), size: AXIS }],
        series: [{}, {
          label: 'busy', stroke: '#2f6db5', width: 1, fill: 'rgba(47,109,181,0.25)', points: { show: false },
          paths: uPlot.paths.stepped({ align: 1 }), value: (self, v) => v == null ? '-' : (v * 100).toFixed(0) + '%',
        }],
      }, [[], []], el);
      page.charts[id] = chart;
    }
    chart.setData([u.x, u.y]);
  }

  /** A chart whose rows are workers and whose bars are the phases of partitions on them. */
  function lanesChart(id, el, workers, now) {
    let chart = page.charts[id];
    const range = xRange(now);
    page.xr[id] = range;
    if (!chart || chart.workers.join() !== workers.join()) {
      if (chart) {
        chart.destroy();
      }
      const rows = Math.max(1, workers.length);
      chart = new uPlot({
        width: width(el), height: 56 + 24 * rows,
        cursor: { sync: { key: 'cuzk' }, y: false, points: { show: false }, drag: { x: false, y: false } },
        legend: { show: false },
        scales: { x: { time: true, range: () => page.xr[id] }, y: { auto: false, range: [0, rows] } },
        axes: [{}, {
          size: AXIS, gap: 4,
          splits: () => workers.map((_, i) => rows - i - 0.5),
          values: (self, ticks) => ticks.map(t => workers[rows - 0.5 - t] || ''),
          grid: { show: false }, ticks: { show: false },
        }],
        series: [{}, { show: false }],
        hooks: { draw: [u => drawLanes(u, id, workers)] },
      }, [[], []], el);
      chart.workers = workers;
      page.charts[id] = chart;
    }
    chart.setData([range, [null, null]]);
  }

  function drawLanes(u, id, workers) {
    const ctx = u.ctx;
    const { left, top, width: w, height: h } = u.bbox;
    const laneH = h / Math.max(1, workers.length);
    const [x0, x1] = page.xr[id];
    let bars = 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, w, h);
    ctx.clip();
    workers.forEach((worker, lane) => {
      const m = page.intervals.get(worker);
      if (!m) {
        return;
      }
      for (const iv of m.values()) {
        if (iv.end < x0 || iv.start > x1) {
          continue;
        }
        const [color, inset] = PHASES[iv.phase] || ['#999', 0.2];
        const a = u.valToPos(iv.start, 'x', true), b = u.valToPos(iv.end, 'x', true);
        ctx.fillStyle = color;
        ctx.fillRect(a, top + lane * laneH + laneH * inset, Math.max(1, b - a), laneH * (1 - 2 * inset));
        bars++;
      }
    });
    ctx.restore();
    page.drawn[id] = bars;
  }

  function hostLanes(now) {
    const workers = Array.from(page.intervals.keys()).filter(w => !w.startsWith('device-')).sort((a, b) => {
      const rank = n => (n.includes('synthesis') ? 0 : 1);
      return rank(a) - rank(b) || a.localeCompare(b, undefined, { numeric: true });
    });
    lanesChart('host-lanes', $('#host-lanes'), workers, now);
  }

  function jobs(list) {
    const body = $('#jobs tbody');
    body.replaceChildren(...list.map(j => {
      const tr = document.createElement('tr');
      const cell = (text, cls) => {
        const td = document.createElement('td');
        td.textContent = text;
        if (cls) {
          td.className = cls;
        }
        tr.appendChild(td);
        return td;
      };
      cell(String(j.jobId));
      cell(j.clientJobId || '', 'l');
      cell(j.key || '', 'l');
      cell((j.priority || 'PRIORITY_NORMAL').replace('PRIORITY_', '').toLowerCase(), 'l');
      cell((j.state || '').replace('JOB_STATE_', '').toLowerCase(), 'l state-' + j.state);
      const done = Number(j.partitionsDone || 0), all = Number(j.partitions || 0);
      const td = cell('');
      const bar = document.createElement('progress');
      bar.max = Math.max(1, all);
      bar.value = done;
      td.append(bar, ' ' + done + '/' + all);
      cell(Number(j.seconds || 0).toFixed(2));
      cell(j.reason || '', 'l');
      return tr;
    }));
    $('#jobs-note').textContent = list.length ? '(running first, then the latest ended; ' + list.length + ' shown)' : '(none)';
  }

  // the legend of the lanes' colours
  const legend = $('#legend');
  legend.append('Bars: ');
  for (const name of ['synthesis', 'handoff', 'H', 'MSMs', 'device', 'finish', 'finalize']) {
    const sw = document.createElement('span');
    sw.className = 'sw sw-' + name;
    legend.append(sw, name);
  }
  legend.append(' · handoff: taking a ready partition and queuing it on the device; finish: collecting the results' +
      ' and handing them to a finalizer; device: H and the MSMs where the backend does not report them apart.');

  window.addEventListener('resize', () => {
    for (const [id, c] of Object.entries(page.charts)) {
      c.setSize({ width: width(c.root.parentElement), height: c.height });
    }
  });

  poll();
})();

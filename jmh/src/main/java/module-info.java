/**
 * The JMH benchmarks, through the public API only; target/benchmarks.jar runs them (from the class
 * path, where JMH finds and instantiates them itself, so nothing is exported).
 */
module io.cuzk.jmh {
    requires io.cuzk.engine;
    requires io.cuzk.witness;
    requires jmh.core;
}

/**
 * The proving engine: many jobs of many partitions at once, budgeted, prioritised, chained on
 * every device. It views pooled memory through arenas of its own (a restricted FFM method): run
 * with {@code --enable-native-access=io.cuzk.bindings,io.cuzk.engine}.
 */
module io.cuzk.engine {
    requires transitive io.cuzk.prover;
    requires org.apache.commons.lang3;
    requires HdrHistogram;
    requires jdk.management;

    exports io.cuzk.engine;
}

package io.cuzk.engine;

import io.cuzk.Backend;
import java.util.function.BooleanSupplier;

/** A test device over a real {@link BackendDevice}: subclasses change what {@link #start} does. */
abstract class DelegatingDevice implements ProvingDevice {
    final BackendDevice real;

    DelegatingDevice(String name, Backend b, int lanes, BooleanSupplier readyWork) {
        this.real = new BackendDevice(name, b, lanes, readyWork);
    }

    @Override
    public String name() {
        return real.name();
    }

    @Override
    public DeviceTimeline timeline() {
        return real.timeline();
    }

    @Override
    public int queued() {
        return real.queued();
    }

    @Override
    public void close() {
        real.close();
    }
}

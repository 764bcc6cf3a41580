package io.cuzk.engine;

/** Job priorities: higher ones are dispatched, and proved, first; equal ones in submission order. */
public enum Priority {
    LOW,
    NORMAL,
    HIGH,
    CRITICAL
}

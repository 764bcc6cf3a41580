package io.cuzk.server;

import java.time.Duration;

/**
 * The daemon's limits on what clients may ask of it.
 *
 * @param maxWitnessBytes the witnesses of one job, in bytes, at most
 * @param maxQueuedPartitions partitions accepted and not yet ended, over all jobs, at most
 * @param maxReceivingBytes witness bytes held of submissions still streaming in, over all of them, at most
 * @param resultTtl how long a finished job's result stays retrievable by Await
 */
record ServerLimits(long maxWitnessBytes, long maxQueuedPartitions, long maxReceivingBytes, Duration resultTtl) {}

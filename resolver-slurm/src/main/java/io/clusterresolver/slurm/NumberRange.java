package io.clusterresolver.slurm;

/** One numeric range of a bracket group, {@code lo-hi} (unsigned), with the zero padding it was written with. */
record NumberRange(long lo, long hi, int width) {}

/** A number read like C's strtoul in base 10: value (saturated) and where reading stopped. */

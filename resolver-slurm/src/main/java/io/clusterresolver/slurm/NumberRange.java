package io.clusterresolver.slurm;

/** One numeric range of a bracket group, {@code lo-hi}, with the zero padding it was written with. */
final class NumberRange {
  final long lo;
  final long hi;
  final int width;

  NumberRange(long lo, long hi, int width) {
    this.lo = lo;
    this.hi = hi;
    this.width = width;
  }
}

/** A number read like C's strtoul in base 10: value (saturated) and where reading stopped. */

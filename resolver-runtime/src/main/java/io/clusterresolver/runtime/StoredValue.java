package io.clusterresolver.runtime;

import com.google.protobuf.ByteString;

/** A value stored on one of this task's devices. */
final class StoredValue {
  final String device;
  final ByteString data;

  StoredValue(String device, ByteString data) {
    this.device = device;
    this.data = data;
  }
}

package io.clusterresolver.runtime;

import com.google.protobuf.ByteString;

/** A value stored on one of this task's devices. */
record StoredValue(String device, ByteString data) {}

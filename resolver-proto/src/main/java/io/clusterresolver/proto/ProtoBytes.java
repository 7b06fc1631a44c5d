package io.clusterresolver.proto;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Deterministic protobuf serialization: map entries sorted by key, so equal messages give equal
 * bytes in every process. This is what TensorFlow compares and hashes (K2), and what the
 * conformance vectors record.
 */
public final class ProtoBytes {

  private ProtoBytes() {}

  /** The deterministic serialization of a message. */
  public static byte[] deterministic(MessageLite message) {
    byte[] out = new byte[message.getSerializedSize()];
    CodedOutputStream stream = CodedOutputStream.newInstance(out);
    stream.useDeterministicSerialization();
    try {
      message.writeTo(stream);
    } catch (IOException e) {
      // Writing into an exactly sized array cannot fail for I/O reasons.
      throw new UncheckedIOException(e);
    }
    stream.checkNoSpaceLeft();
    return out;
  }
}

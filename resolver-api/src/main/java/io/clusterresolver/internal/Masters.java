package io.clusterresolver.internal;

/**
 * How every resolver writes a master address, so they all agree: {@code rpcLayer://address}, the
 * bare address when there is no rpc layer, and {@code ""} when there is no address (TensorFlow
 * would give {@code "grpc://"}; deviation D6).
 */
public final class Masters {

  private Masters() {}

  /**
   * The master URL of an address.
   *
   * @param address {@code host:port}, or {@code ""}/{@code null} for "nothing remote"
   * @param rpcLayer a scheme such as {@code grpc}; {@code null} or {@code ""} means none
   */
  public static String format(String address, String rpcLayer) {
    if (address == null || address.isEmpty()) {
      return "";
    }
    return rpcLayer == null || rpcLayer.isEmpty() ? address : rpcLayer + "://" + address;
  }

  /** {@code preferred} unless it is {@code null} or empty, else {@code fallback} (TensorFlow's {@code a or b}). */
  public static String orElse(String preferred, String fallback) {
    return preferred == null || preferred.isEmpty() ? fallback : preferred;
  }
}

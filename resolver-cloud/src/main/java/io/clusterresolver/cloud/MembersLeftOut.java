package io.clusterresolver.cloud;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The machines one listing leaves out, said once at INFO after the listing with the first {@value #SHOWN}: those
 * without an address of the chosen {@link AddressType} (a member is never given another, {@link #of}),
 * {@code aws: 2 instance(s) without a public-ipv4 address left out: i-1 (running), i-2 (stopped)}, or those left
 * out for reasons each machine's entry gives ({@link #because}),
 * {@code kubernetes: 2 pod(s) matching the selector left out of the cluster: p-1 (not ready), p-2 (no IP)}.
 * For one listing, on one thread at a time.
 */
public final class MembersLeftOut {

  /** How many left-out machines the log line names; a longer list ends in {@code , …}. */
  public static final int SHOWN = 20;

  private final String provider;
  private final String machines;
  private final String why;
  private final List<String> leftOut = new ArrayList<>();

  private MembersLeftOut(String provider, String machines, String why) {
    this.provider = Objects.requireNonNull(provider, "provider");
    this.machines = Objects.requireNonNull(machines, "machines");
    this.why = Objects.requireNonNull(why, "why");
  }

  /**
   * @param provider the provider's name, which starts the line
   * @param machines what the cloud's machines are called, with the plural in parentheses: {@code instance(s)}
   * @param address the chosen address type
   * @param where where that address is read, written after "address" ({@code on nic0}), or empty
   */
  public static MembersLeftOut of(String provider, String machines, AddressType address, String where) {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(where, "where");
    return new MembersLeftOut(provider, machines, "without a " + address.configName() + " address"
        + (where.isEmpty() ? "" : " " + where) + " left out");
  }

  /**
   * Machines left out for reasons of their own, which each one's entry gives ({@code p-1 (not ready)}): the line is
   * {@code PROVIDER: N MACHINES WHY: } and the first {@value #SHOWN} entries.
   *
   * @param provider the provider's name, which starts the line
   * @param machines what the cloud's machines are called, with the plural in parentheses: {@code pod(s)}
   * @param why what the left-out machines have in common, written after their count and kind, before the colon:
   *     {@code matching the selector left out of the cluster}
   */
  public static MembersLeftOut because(String provider, String machines, String why) {
    return new MembersLeftOut(provider, machines, why);
  }

  /** Notes one machine left out, as it is named in the line ({@code i-1 (running)}, {@code p-1 (not ready)}). */
  public void add(String machine) {
    leftOut.add(machine);
  }

  /** How many machines were left out so far. */
  public int count() {
    return leftOut.size();
  }

  /** The line {@link #log} writes, or empty when no machine was left out. */
  public String message() {
    if (leftOut.isEmpty()) {
      return "";
    }
    StringBuilder line = new StringBuilder(provider).append(": ").append(leftOut.size()).append(' ').append(machines)
        .append(' ').append(why).append(": ");
    for (int i = 0; i < Math.min(SHOWN, leftOut.size()); i++) {
      line.append(i == 0 ? "" : ", ").append(leftOut.get(i));
    }
    return line.append(leftOut.size() > SHOWN ? ", …" : "").toString();
  }

  /** Writes {@link #message()} at INFO to the provider's logger, when any machine was left out. */
  public void log(Logger log) {
    if (!leftOut.isEmpty() && log.isLoggable(Level.INFO)) {
      log.log(Level.INFO, message());
    }
  }
}

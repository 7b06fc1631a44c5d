package io.clusterresolver.cloud;

import java.util.Objects;

/**
 * How many tasks run on each member: a fixed number (default 1), or one per accelerator
 * ({@code accelerator}: a member with {@code n > 0} accelerators of its most numerous device type
 * runs {@code n} tasks, one without any runs one). Task {@code i} on a member listens on
 * {@code port + i}.
 */
public final class TasksPerMember {

  /** The configuration word for one task per accelerator. */
  public static final String PER_ACCELERATOR = "accelerator";

  private static final TasksPerMember ONE = new TasksPerMember(1);

  private final int fixed;

  private TasksPerMember(int fixed) {
    this.fixed = fixed;
  }

  /** The most tasks per member: each listens on a port of its own, and a member has few to spare. */
  private static final int MAX = 1024;

  /** One task per member. */
  public static TasksPerMember one() {
    return ONE;
  }

  /** {@code n} tasks per member, at most 1024. */
  public static TasksPerMember fixed(int n) {
    if (n < 1 || n > MAX) {
      throw new IllegalArgumentException("Tasks per member must be between 1 and " + MAX + ", not " + n);
    }
    return n == 1 ? ONE : new TasksPerMember(n);
  }

  /** One task per accelerator. */
  public static TasksPerMember perAccelerator() {
    return new TasksPerMember(0);
  }

  /**
   * Parses a positive integer or {@code accelerator}.
   *
   * @throws IllegalArgumentException for anything else
   */
  public static TasksPerMember parse(String text) {
    String t = Objects.requireNonNull(text, "tasks per member").trim();
    if (t.equals(PER_ACCELERATOR)) {
      return perAccelerator();
    }
    int n;
    try {
      n = Integer.parseInt(t);
    } catch (NumberFormatException e) {
      // Out of int's range too: "99999999999" is no more a task count than "many".
      throw new IllegalArgumentException("Tasks per member '" + text + "' must be an integer from 1 to " + MAX
          + " or '" + PER_ACCELERATOR + "'");
    }
    return fixed(n);
  }

  /** Whether a member runs one task per accelerator. */
  public boolean isPerAccelerator() {
    return fixed == 0;
  }

  /** The number of tasks on a member. */
  public int tasksOn(Member member) {
    if (fixed > 0) {
      return fixed;
    }
    return Math.max(1, member.accelerators().values().stream().mapToInt(Integer::intValue).max().orElse(0));
  }

  @Override
  public String toString() {
    return fixed == 0 ? PER_ACCELERATOR : Integer.toString(fixed);
  }
}

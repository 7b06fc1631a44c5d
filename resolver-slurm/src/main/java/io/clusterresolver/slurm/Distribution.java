package io.clusterresolver.slurm;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.ClusterResolverException;
import java.util.Locale;

/**
 * How a Slurm step spreads its ranks over its nodes ({@code SLURM_DISTRIBUTION}, first level):
 * block (consecutive ranks fill a node), cyclic (round-robin over the nodes that still have tasks
 * left), or plane (blocks of {@code SLURM_DIST_PLANESIZE} ranks, round-robin).
 */
record Distribution(Kind kind, int planeSize) {

  enum Kind { BLOCK, CYCLIC, PLANE }

  static final Distribution BLOCK = new Distribution(Kind.BLOCK, 0);

  /**
   * Reads the node-level distribution from the values of {@code SLURM_DISTRIBUTION} and
   * {@code SLURM_DIST_PLANESIZE} (either may be {@code null}).
   *
   * @throws ClusterResolverException for an arbitrary layout, which the environment cannot
   *     describe, or a distribution this resolver does not know
   */
  static Distribution parse(String distribution, String planeSize) {
    if (distribution == null || distribution.isBlank()) {
      return BLOCK; // Slurm's default, also what a batch script (no step) sees
    }
    // "block:cyclic,pack": the node level is the part before ':' and before ','.
    String nodeLevel = distribution.trim().split("[:,]", 2)[0].toLowerCase(Locale.ROOT);
    switch (nodeLevel) {
      case "":
      case "*":
      case "block":
        return BLOCK;
      case "cyclic":
        return new Distribution(Kind.CYCLIC, 0);
      case "plane":
        return new Distribution(Kind.PLANE, planeSize(distribution, planeSize));
      case "arbitrary":
        throw new ClusterResolverException("SLURM_DISTRIBUTION=" + distribution
            + ": an arbitrary task layout (srun -m arbitrary) cannot be reconstructed from the"
            + " environment; launch the step with block, cyclic or plane distribution");
      default:
        if (nodeLevel.startsWith("plane=")) {
          return new Distribution(Kind.PLANE, planeSize(distribution, nodeLevel.substring(6)));
        }
        throw new ClusterResolverException("SLURM_DISTRIBUTION=" + distribution
            + " is not a task distribution this resolver knows (block, cyclic, plane)");
    }
  }

  private static int planeSize(String distribution, String planeSize) {
    if (planeSize == null || planeSize.isBlank()) {
      throw new ClusterResolverException("SLURM_DISTRIBUTION=" + distribution
          + " needs SLURM_DIST_PLANESIZE, which is not set");
    }
    try {
      int size = Integer.parseInt(planeSize.trim());
      if (size > 0) {
        return size;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConfigurationException(
        "SLURM_DIST_PLANESIZE='" + planeSize + "' is not a positive integer");
  }

  /**
   * Places ranks on nodes: for each rank, its node index and its local id (its position among
   * the ranks of that node, in rank order — Slurm's {@code SLURM_LOCALID}).
   *
   * @param tasksPerNode tasks of each node, in node-list order
   * @param nodeOfRank out: node index per rank; length = total tasks
   * @param localIdOfRank out: local id per rank
   */
  void place(int[] tasksPerNode, int[] nodeOfRank, int[] localIdOfRank) {
    int nodes = tasksPerNode.length;
    int[] placed = new int[nodes];
    int rank = 0;
    int total = nodeOfRank.length;
    if (kind == Kind.BLOCK) {
      for (int node = 0; node < nodes; node++) {
        for (int local = 0; local < tasksPerNode[node]; local++, rank++) {
          nodeOfRank[rank] = node;
          localIdOfRank[rank] = local;
        }
      }
      return;
    }
    int chunk = kind == Kind.CYCLIC ? 1 : planeSize;
    while (rank < total) {
      for (int node = 0; node < nodes && rank < total; node++) {
        int take = Math.min(chunk, tasksPerNode[node] - placed[node]);
        for (int k = 0; k < take; k++, rank++) {
          nodeOfRank[rank] = node;
          localIdOfRank[rank] = placed[node]++;
        }
      }
    }
  }

  @Override
  public String toString() {
    return kind == Kind.PLANE ? "plane=" + planeSize : kind.name().toLowerCase(Locale.ROOT);
  }
}

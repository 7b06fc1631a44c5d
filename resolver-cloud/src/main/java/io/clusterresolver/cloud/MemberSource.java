package io.clusterresolver.cloud;

import java.util.List;

/**
 * Lists a cloud's members afresh, all of them or none: one call of {@link #members()} follows every
 * page of the cloud's API, and a failure anywhere is an exception, never a shorter list.
 */
@FunctionalInterface
public interface MemberSource {

  /**
   * The current members.
   *
   * @throws io.clusterresolver.ClusterResolverException when the cloud's API fails (naming the
   *     operation, the HTTP status and the request id)
   */
  List<Member> members();
}

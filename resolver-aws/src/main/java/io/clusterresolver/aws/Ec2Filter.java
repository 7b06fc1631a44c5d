package io.clusterresolver.aws;

import java.util.List;

/**
 * One filter of {@code DescribeInstances}: an instance matches when its {@code name} has one of {@code values}.
 *
 * @param name the filter's name, like {@code tag:cluster} or {@code instance-state-name}
 * @param values the values, any of which matches
 */
record Ec2Filter(String name, List<String> values) {
  Ec2Filter {
    values = List.copyOf(values);
  }
}

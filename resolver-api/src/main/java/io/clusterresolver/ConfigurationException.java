package io.clusterresolver;

import java.util.List;

/**
 * The user must change something: a property, an environment variable, a command-line argument.
 * The message names each full key ({@code clusterresolver.aws.port}) or variable and says what to
 * change; {@link #problems()} lists them one by one. The command line exits with code 2.
 *
 * <p>A subclass of {@link IllegalArgumentException}, so code that caught configuration mistakes
 * that way keeps working. Any other exception escaping a provider is a bug in it.
 */
public class ConfigurationException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  /** One problem. */
  public ConfigurationException(String message) {
    super(message);
    this.problems = List.of(message);
  }

  /** One problem found while handling {@code cause}. */
  public ConfigurationException(String message, Throwable cause) {
    super(message, cause);
    this.problems = List.of(message);
  }

  private ConfigurationException(String message, List<String> problems) {
    super(message);
    this.problems = List.copyOf(problems);
  }

  /**
   * Several problems of one provider's configuration, reported at once: the first line says how
   * many, each following line names a key and what to change.
   *
   * @param provider the provider name, such as {@code aws}
   * @param problems one sentence per problem, each naming its full key; at least one
   */
  public static ConfigurationException of(String provider, List<String> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("no problems to report");
    }
    StringBuilder message = new StringBuilder()
        .append("Invalid configuration for cluster resolver provider '").append(provider).append("': ")
        .append(problems.size()).append(problems.size() == 1 ? " problem" : " problems");
    for (String problem : problems) {
      message.append(System.lineSeparator()).append("  - ").append(problem);
    }
    return new ConfigurationException(message.toString(), problems);
  }

  /** Each problem on its own, in the order found. */
  public List<String> problems() {
    return problems;
  }
}

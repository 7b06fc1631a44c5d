package io.clusterresolver.cli;

import io.clusterresolver.internal.Suggestions;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Settings that no provider on the class path reads: a typo in a system property, an environment
 * variable or a key of a provider other than the one used would otherwise be ignored silently. The
 * provider in use rejects its own unknown keys; these are the rest, reported as warnings with the
 * closest valid key.
 */
final class UnknownKeys {

  private static final String ENV_PREFIX = ConfigProperty.environmentVariableOf(ConfigProperty.PREFIX);

  private UnknownKeys() {}

  /**
   * One warning line per unknown setting, in a stable order. The distribution's catalog (its providers that are not
   * on the class path, whose settings are known too) is read only when some setting could be unknown: a resolve
   * whose settings are all the chosen provider's, the common case, does not read it (issue 23).
   *
   * @param chosen the provider in use (its own unknown keys are errors, reported elsewhere)
   * @param keys every setting's key with where it came from ({@code -D}, a file, a system property)
   * @param environment the environment variables
   */
  static List<String> warnings(List<ClusterResolverProvider> providers, ClusterResolverProvider chosen,
      Map<String, String> keys, Map<String, String> environment) {
    String chosenKeys = ConfigProperty.PREFIX + chosen.name() + ".";
    String chosenVariables = ConfigProperty.environmentVariableOf(chosenKeys);
    // Loops, not lambdas: this runs at every cold start. Only the few matches are sorted, not every system property
    // and environment variable (issue 23).
    List<String> otherKeys = new ArrayList<>();
    for (String key : keys.keySet()) {
      if (key.startsWith(ConfigProperty.PREFIX) && !key.startsWith(chosenKeys)) {
        otherKeys.add(key);
      }
    }
    List<String> otherVariables = new ArrayList<>();
    for (String variable : environment.keySet()) {
      if (variable.toUpperCase(Locale.ROOT).startsWith(ENV_PREFIX) && !variable.startsWith(chosenVariables)) {
        otherVariables.add(variable);
      }
    }
    Collections.sort(otherKeys);
    Collections.sort(otherVariables);
    if (otherKeys.isEmpty() && otherVariables.isEmpty()) {
      return List.of();
    }
    ProviderCatalog catalog = ProviderCatalog.ofDistribution();
    Set<String> declaredKeys = new TreeSet<>(catalog.keys());
    Set<String> declaredVariables = new TreeSet<>(catalog.variables());
    for (ClusterResolverProvider provider : providers) {
      for (ConfigProperty<?> property : provider.properties()) {
        declaredKeys.add(property.key(provider.name()));
        declaredVariables.add(property.environmentVariable(provider.name()));
      }
    }
    List<String> warnings = new ArrayList<>();
    for (String key : otherKeys) {
      if (!declaredKeys.contains(key)) {
        warnings.add(warning(key, keys.get(key), Suggestions.closest(key, declaredKeys)));
      }
    }
    for (String variable : otherVariables) {
      if (!declaredVariables.contains(variable)) {
        warnings.add(warning(variable, "environment variable", Suggestions.closest(variable, declaredVariables)));
      }
    }
    return warnings;
  }

  private static String warning(String key, String source, Optional<String> closest) {
    return "warning: " + key + " (" + source + ") is read by no provider on the class path"
        + closest.map(c -> ": did you mean " + c + "?").orElse("");
  }
}

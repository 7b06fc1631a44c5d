package io.clusterresolver.cli;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.proto.DeviceFilters;
import io.clusterresolver.runtime.TlsConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Options shared by {@code serve} and {@code connect}: TLS and device filters. A mixin.
 *
 * <p>Key store passwords are read from an environment variable, never from the command line (where
 * {@code ps} would show them), and are never printed.
 */
public final class TransportOptions {
  static final String DEFAULT_PASSWORD_VARIABLE = "CLUSTERRESOLVER_TLS_PASSWORD";

  @Option(names = "--tls-key-store", paramLabel = "FILE",
      description = "This task's private key and certificate (PKCS12 or JKS). Enables TLS.")
  private Path keyStore;

  @Option(names = "--tls-trust-store", paramLabel = "FILE",
      description = "The certificates to trust (PKCS12 or JKS). Required with --tls-key-store.")
  private Path trustStore;

  @Option(names = "--tls-password-env", paramLabel = "VARIABLE", defaultValue = DEFAULT_PASSWORD_VARIABLE,
      description = "The environment variable holding the stores' password (default: ${DEFAULT-VALUE}).")
  private String passwordVariable;

  @Option(names = "--mutual-tls",
      description = "Servers require client certificates and take the caller's task from the"
          + " certificate's subject CN (CN=/job:NAME/replica:0/task:INDEX).")
  private boolean mutual;

  @Option(names = "--device-filter", paramLabel = "JOB:TASK=FILTER[,FILTER...]",
      description = "Device filters of one task, e.g. worker:0=/job:ps,/job:worker/task:0"
          + " (repeatable; TensorFlow's set_device_filters).")
  private List<String> deviceFilters = new ArrayList<>();

  /** The TLS configuration, or {@code null} for plaintext. */
  TlsConfig tls(Map<String, String> environment) {
    if (keyStore == null && trustStore == null) {
      if (mutual) {
        throw new ConfigurationException("--mutual-tls needs --tls-key-store and --tls-trust-store");
      }
      return null;
    }
    if (keyStore == null || trustStore == null) {
      throw new ConfigurationException("TLS needs both --tls-key-store and --tls-trust-store");
    }
    String password = environment.get(passwordVariable);
    if (password == null) {
      throw new ConfigurationException("TLS: set the key store password in the environment"
          + " variable " + passwordVariable + " (or name another with --tls-password-env)");
    }
    char[] chars = password.toCharArray();
    try {
      return TlsConfig.fromFiles(keyStore, chars, trustStore, chars, mutual);
    } finally {
      Arrays.fill(chars, '\0');
    }
  }

  /** The filters given with {@code --device-filter}. */
  DeviceFilters deviceFilters() {
    DeviceFilters.Builder builder = DeviceFilters.builder();
    for (String option : deviceFilters) {
      int equals = option.indexOf('=');
      int colon = equals < 0 ? -1 : option.lastIndexOf(':', equals);
      if (equals < 0 || colon <= 0) {
        throw new ConfigurationException("--device-filter " + option
            + ": expected JOB:TASK=FILTER[,FILTER...], e.g. worker:0=/job:ps");
      }
      int task;
      try {
        task = Integer.parseInt(option.substring(colon + 1, equals));
      } catch (NumberFormatException e) {
        throw new ConfigurationException("--device-filter " + option + ": the task index '"
            + option.substring(colon + 1, equals) + "' is not a number");
      }
      String filters = option.substring(equals + 1);
      builder.setDeviceFilters(option.substring(0, colon), task,
          filters.isEmpty() ? List.of() : List.of(filters.split(",")));
    }
    return builder.build();
  }
}

package io.clusterresolver.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** What {@code resolve} prints. */
public enum OutputFormat {
  /** One JSON object: cluster, task, rpc_layer, environment, accelerators. */
  JSON("json"),
  /** The {@code TF_CONFIG} JSON TensorFlow reads. */
  TF_CONFIG("tf-config"),
  /** An MPI hostfile: one host per line, with {@code slots=N} when it carries several tasks. */
  HOSTFILE("hostfile"),
  /** Shell assignments for launchers: TF_CONFIG, PyTorch's MASTER_ADDR/PORT, WORLD_SIZE, RANK, CUDA_VISIBLE_DEVICES. */
  ENV("env"),
  /** A table for a person: rank, job, index, address; this task marked with its accelerators. */
  TABLE("table");

  private final String text;

  OutputFormat(String text) {
    this.text = text;
  }

  /** The text of the resolution in this format, ending with a line break. */
  public String render(Answer resolution) {
    // A switch, not a renderer per constant: a cold start would spin a lambda class for each of them.
    switch (this) {
      case JSON:
        return JsonOutput.render(resolution);
      case TF_CONFIG:
        return TfConfigOutput.render(resolution);
      case HOSTFILE:
        return HostfileOutput.render(resolution);
      case ENV:
        return EnvOutput.render(resolution);
      default:
        return TableOutput.render(resolution);
    }
  }

  @Override
  public String toString() {
    return text;
  }

  /** Parses {@code json}, {@code tf-config}, {@code hostfile}, {@code env} or {@code table}. */
  static final class Converter implements ITypeConverter<OutputFormat> {
    @Override
    public OutputFormat convert(String value) {
      for (OutputFormat format : values()) {
        if (format.text.equals(value.toLowerCase(Locale.ROOT))) {
          return format;
        }
      }
      throw new TypeConversionException("'" + value + "' is not a format: use json, tf-config, hostfile, env or table");
    }
  }
}

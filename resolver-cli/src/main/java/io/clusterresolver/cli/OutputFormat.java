package io.clusterresolver.cli;

import java.util.Locale;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** What {@code resolve} prints. */
public enum OutputFormat {
  /** One JSON object: cluster, task, rpc_layer, environment, accelerators. */
  JSON("json", JsonOutput::render),
  /** The {@code TF_CONFIG} JSON TensorFlow reads. */
  TF_CONFIG("tf-config", TfConfigOutput::render),
  /** An MPI hostfile: one host per line, with {@code slots=N} when it carries several tasks. */
  HOSTFILE("hostfile", HostfileOutput::render),
  /** Shell assignments for launchers: TF_CONFIG, PyTorch's MASTER_ADDR/PORT, WORLD_SIZE, RANK, CUDA_VISIBLE_DEVICES. */
  ENV("env", EnvOutput::render),
  /** A table for a person: rank, job, index, address; this task marked with its accelerators. */
  TABLE("table", TableOutput::render);

  private final String text;
  private final Function<Answer, String> renderer;

  OutputFormat(String text, Function<Answer, String> renderer) {
    this.text = text;
    this.renderer = renderer;
  }

  /** The text of the resolution in this format, ending with a line break. */
  public String render(Answer resolution) {
    return renderer.apply(resolution);
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

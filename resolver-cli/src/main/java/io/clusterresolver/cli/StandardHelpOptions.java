package io.clusterresolver.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code -h, --help} and {@code -V, --version} for a command whose model is built in code: the options of picocli's
 * {@code mixinStandardHelpOptions = true}, with the same names, descriptions and mixin key, without picocli reading
 * its own annotated mixin class at every start (issue 23). Added last, as picocli adds its own.
 */
final class StandardHelpOptions {

  /** picocli's key for these options among a command's mixins (what {@link CommandSpec#mixinStandardHelpOptions()} reads). */
  private static final String MIXIN_KEY = "mixinStandardHelpOptions";

  private StandardHelpOptions() {}

  static void addTo(CommandSpec command) {
    CommandSpec mixin = CommandSpec.create()
        // The names as picocli declares them: the picocli.help.name.* system properties can rename them.
        .addOption(OptionSpec.builder("${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
            .usageHelp(true)
            .type(boolean.class)
            .descriptionKey("mixinStandardHelpOptions.help")
            .description("Show this help message and exit.")
            .build())
        .addOption(OptionSpec.builder("${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
            .versionHelp(true)
            .type(boolean.class)
            .descriptionKey("mixinStandardHelpOptions.version")
            .description("Print version information and exit.")
            .build());
    command.addMixin(MIXIN_KEY, mixin);
  }
}

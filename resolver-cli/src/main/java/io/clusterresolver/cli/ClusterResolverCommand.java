package io.clusterresolver.cli;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.internal.UntrustedText;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The {@code cluster-resolver} command. Each subcommand is its own class, listed in
 * {@link #SUBCOMMANDS}; it reaches this process's environment through its parent's
 * {@link #environment()} ({@link Subcommand#environment()}).
 *
 * <p>Exit codes are those of {@link ExitCodes}. Errors go to standard error only; a command writes
 * to standard output only once it has its whole answer, so nothing reaches standard output when it
 * fails.
 *
 * <p>This command's picocli model, like {@code resolve}'s, is built in code ({@link #model()}): every run builds
 * it, and reading it from annotations was the largest part of a cold start's command phase (issue 23).
 */
public final class ClusterResolverCommand implements Runnable {

  /**
   * The subcommands, in the order help lists them; a new one is added here. picocli builds each
   * command's model by reflection when it is registered, a large part of a cold start, so a command
   * line that names a subcommand registers only that one (see {@link #commandLine(Map, PrintWriter,
   * PrintWriter, String...)}).
   */
  static final List<Class<?>> SUBCOMMANDS = List.of(
      ProvidersCommand.class,
      DetectCommand.class,
      ResolveCommand.class,
      ServeCommand.class,
      TfServerCommand.class,
      ConnectCommand.class,
      RelayCommand.class);

  /**
   * The names of {@link #SUBCOMMANDS}, in the same order, so that choosing the one to register reads no
   * annotation (a test checks they match the names the commands' models give them).
   */
  static final List<String> SUBCOMMAND_NAMES =
      List.of("providers", "detect", "resolve", "serve", "tf-server", "connect", "relay");

  private static final String[] DESCRIPTION = {
    "Tells a distributed program who is in its cluster, at which address, with which accelerators,"
        + " and which member it is.",
    ""
  };

  private static final String[] EXIT_CODES = {
    "0:success",
    "2:usage or configuration error (unknown option or provider, invalid property, malformed TF_CONFIG)",
    "3:resolution failure (the cloud, scheduler or metadata server gave no answer)"
  };

  private final Map<String, String> environment;

  private final CommandSpec spec;

  /** A command that reads this environment (the process's, or a map given by a test). */
  public ClusterResolverCommand(Map<String, String> environment) {
    this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    this.spec = CommandSpec.wrapWithoutInspection(this).name("cluster-resolver").versionProvider(new Version());
    spec.usageMessage()
        .description(DESCRIPTION)
        .exitCodeListHeading("%nExit codes:%n")
        .exitCodeList(UsageMessageSpec.keyValuesMap(EXIT_CODES));
    StandardHelpOptions.addTo(spec);
  }

  /** The model of this command, without subcommands: {@link #commandLine(Map, PrintWriter, PrintWriter)} adds them. */
  CommandSpec model() {
    return spec;
  }

  /** The environment variables resolvers read and {@code CLUSTERRESOLVER_*} settings come from. */
  public Map<String, String> environment() {
    return environment;
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "Missing command: use one of " + String.join(", ", spec.subcommands().keySet()));
  }

  /** Runs the command on this process's environment, standard output and standard error. */
  public static int execute(String... args) {
    // UTF-8 always: JSON requires it, and a job name like "wörker" must not become "?" without a locale.
    Charset charset = StandardCharsets.UTF_8;
    PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, charset), true);
    PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err, charset), true);
    return execute(System.getenv(), out, err, args);
  }

  /** Runs the command with the given environment and output streams; returns its exit code. */
  public static int execute(Map<String, String> environment, PrintWriter out, PrintWriter err, String... args) {
    int code = commandLine(environment, out, err, args).execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /** The configured command line with every subcommand: exit codes, error handling and output streams. */
  public static CommandLine commandLine(Map<String, String> environment, PrintWriter out, PrintWriter err) {
    return commandLine(environment, out, err, new String[0]);
  }

  /**
   * The configured command line for these arguments: when the first one names a subcommand, only
   * that subcommand is registered (the answer is the same, the start faster); otherwise (help,
   * version, a misspelled command) all of them, with {@code help}.
   */
  static CommandLine commandLine(
      Map<String, String> environment, PrintWriter out, PrintWriter err, String... args) {
    ClusterResolverCommand command = new ClusterResolverCommand(environment);
    CommandLine commandLine = new CommandLine(command.model());
    int named = args.length > 0 ? SUBCOMMAND_NAMES.indexOf(args[0]) : -1;
    if (named >= 0) {
      command.addSubcommand(commandLine, SUBCOMMANDS.get(named));
    } else {
      for (Class<?> subcommand : SUBCOMMANDS) {
        command.addSubcommand(commandLine, subcommand);
      }
      commandLine.addSubcommand(CommandLine.HelpCommand.class);
    }
    // Settings below reach the subcommands registered so far, so they come last.
    commandLine.setExpandAtFiles(false); // an argument starting with @ is a value, never a file to read
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    commandLine.setParameterExceptionHandler(new UsageErrorHandler());
    return commandLine;
  }

  /** Adds a subcommand: {@code resolve}'s model is built in code, the others' read from their annotations. */
  private void addSubcommand(CommandLine commandLine, Class<?> subcommand) {
    if (subcommand == ResolveCommand.class) {
      commandLine.addSubcommand(ResolveCommand.NAME, new CommandLine(new ResolveCommand(this).model()));
    } else {
      commandLine.addSubcommand(subcommand);
    }
  }

  /** Classes rather than method references: a cold start spins no lambda class for them. */
  private static final class UsageErrorHandler implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException e, String[] args) {
      return handleUsageError(e, args);
    }
  }

  private static final class FailureHandler implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine command, ParseResult parseResult) {
      return handleFailure(e, command, parseResult);
    }
  }

  private static int handleUsageError(ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    err.println("cluster-resolver: " + (e instanceof CommandLine.UnmatchedArgumentException unmatched
        ? unmatchedWithoutValues(unmatched, command.getCommandSpec().parent() == null)
        : withoutValues(e.getMessage())));
    if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
      err.println("Run '" + command.getCommandSpec().qualifiedName() + " --help' for usage.");
    }
    return ExitCodes.USAGE;
  }

  /**
   * picocli's message for a malformed {@code -D}, without the text the user gave: it may carry a
   * secret ({@code -D clusterresolver.aws.secret-access-key:SECRET}).
   */
  static String withoutValues(String message) {
    java.util.regex.Matcher m = Patterns.NOT_KEY_VALUE.matcher(String.valueOf(message));
    if (m.matches()) {
      return "-D takes KEY=VALUE, like -D clusterresolver.aws.region=us-east-1; one -D has no '=' (its text is not"
          + " shown: it may hold a secret)";
    }
    return message;
  }

  /**
   * The message for unmatched arguments. A mistyped command ({@code reslove}) is named: before any
   * command, a lower-case word close enough to a command's name that picocli suggests one is that
   * command misspelt, not a secret. Everything else goes through {@link #unmatchedWithoutValues}.
   */
  private static String unmatchedWithoutValues(CommandLine.UnmatchedArgumentException e, boolean topLevel) {
    List<String> unmatched = e.getUnmatched();
    if (topLevel && !unmatched.isEmpty() && Patterns.COMMAND_WORD.matcher(unmatched.get(0)).matches()
        && !e.getSuggestions().isEmpty()) {
      List<String> rest = unmatched.subList(1, unmatched.size());
      return "unknown command '" + unmatched.get(0) + "'"
          + (rest.isEmpty() ? "" : "; " + unmatchedWithoutValues(rest, true));
    }
    return unmatchedWithoutValues(unmatched, topLevel);
  }

  /** The patterns of usage errors, compiled only when a command line has one. */
  private static final class Patterns {
    static final java.util.regex.Pattern NOT_KEY_VALUE = java.util.regex.Pattern.compile(
        "Value for option option '(-D)' \\(KEY=VALUE\\) should be in KEY=VALUE format but was (.*)",
        java.util.regex.Pattern.DOTALL);
    /** A word where a command goes: lower-case letters and dashes, like every command's name. */
    static final java.util.regex.Pattern COMMAND_WORD = java.util.regex.Pattern.compile("[a-z][a-z-]{0,31}");
    /** An option's name as typed ({@code --access-key}, {@code -Dclusterresolver.aws.region}): shown. */
    static final java.util.regex.Pattern OPTION_NAME = java.util.regex.Pattern.compile("--?[A-Za-z][A-Za-z0-9._-]{0,80}");
    /** A key before '=' ({@code clusterresolver.aws.region}, {@code --timeout}): shown, its value not. */
    static final java.util.regex.Pattern KEY = java.util.regex.Pattern.compile("(--?)?[A-Za-z][A-Za-z0-9._-]{0,80}");
  }

  /**
   * picocli's "Unknown option(s)" and "Unmatched argument(s)" message, without what may be a
   * secret: option names are shown, a value after '=' is {@code ***}, and any other argument (a
   * secret given where no option takes it, like {@code --access-key SECRET}) is only counted.
   *
   * @param topLevel whether the arguments were given before a command (where no {@code -D} is taken)
   */
  static String unmatchedWithoutValues(List<String> unmatched, boolean topLevel) {
    List<String> shown = new java.util.ArrayList<>();
    int hidden = 0;
    for (String argument : unmatched) {
      int eq = argument.indexOf('=');
      if (Patterns.OPTION_NAME.matcher(argument).matches()) {
        shown.add("'" + argument + "'");
      } else if (eq > 0 && Patterns.KEY.matcher(argument.substring(0, eq)).matches()) {
        shown.add("'" + argument.substring(0, eq) + "=***'");
      } else {
        hidden++;
      }
    }
    StringBuilder message = new StringBuilder("unknown option or argument: ").append(String.join(", ", shown));
    if (hidden > 0) {
      message.append(shown.isEmpty() ? "" : ", and ").append(hidden)
          .append(hidden == 1 ? " argument" : " arguments").append(" not shown (it may hold a secret)");
    }
    if (topLevel && unmatched.stream().anyMatch(a -> a.startsWith("-D"))) {
      message.append("; -D goes after the command: cluster-resolver resolve -D KEY=VALUE");
    }
    return message.toString();
  }

  private static int handleFailure(Exception e, CommandLine command, ParseResult parseResult) {
    PrintWriter err = command.getErr();
    if (e instanceof ClusterResolverException) {
      err.println("cluster-resolver: " + messageWithCauses(e));
      return ExitCodes.RESOLUTION_FAILURE;
    }
    if (e instanceof ConfigurationException) {
      // The user must change a property, a variable or an argument: the message names which.
      err.println("cluster-resolver: " + UntrustedText.withoutUserInfo(e.getMessage()));
      return ExitCodes.USAGE;
    }
    // Anything else escaping a provider or a command is a bug: say so, with the stack trace.
    err.println("cluster-resolver: internal error: " + e);
    e.printStackTrace(err);
    return ExitCodes.INTERNAL_ERROR;
  }

  /** The message and, when they add something, the messages of its causes. */
  static String messageWithCauses(Throwable e) {
    Set<String> messages = new LinkedHashSet<>();
    for (Throwable t = e; t != null && messages.size() < 5; t = t.getCause()) {
      String message = t.getMessage();
      if (message != null && !message.isBlank()
          && messages.stream().noneMatch(m -> m.contains(message))) {
        // A cause's message is an SDK's or a server's text: escaped, and without a URL's password.
        messages.add(UntrustedText.withoutUserInfo(
            t == e ? message : t.getClass().getSimpleName() + ": " + UntrustedText.escape(message)));
      }
    }
    return String.join(System.lineSeparator() + "  caused by ", messages);
  }

  /** The version from the jar's manifest. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = ClusterResolverCommand.class.getPackage().getImplementationVersion();
      return new String[] {"cluster-resolver " + (version == null ? "(development build)" : version)};
    }
  }
}

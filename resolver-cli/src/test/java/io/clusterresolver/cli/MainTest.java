package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;

class MainTest {

  @Test
  void aThreadWaitingOnASelectorIsWokenBeforeTheProcessExits() throws Exception {
    // The JDK HttpClient's selector thread waits like this; while it does, the JVM's exit waits for it.
    CountDownLatch selecting = new CountDownLatch(1);
    ThreadGroup program = new ThreadGroup("a program's threads"); // not the test runner's
    Thread selectorThread = new Thread(program, () -> {
      try (Selector selector = Selector.open()) {
        selecting.countDown();
        while (!Thread.currentThread().isInterrupted()) {
          selector.select(); // no timeout: only a wakeup or an interrupt ends it
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, "HttpClient-1-SelectorManager");
    selectorThread.setDaemon(true);
    selectorThread.start();
    assertThat(selecting.await(10, TimeUnit.SECONDS)).isTrue();

    selectorThread.join(200);
    assertThat(selectorThread.isAlive()).as("still selecting before the call").isTrue();

    Main.interruptOtherThreads(program);

    selectorThread.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(selectorThread.isAlive()).as("left select() when interrupted").isFalse();
  }

  @Test
  void noOptionOfAnyCommandTakesATypeWhoseConverterMainLeavesOut() {
    PrintWriter sink = new PrintWriter(new StringWriter());
    CommandLine all = ClusterResolverCommand.commandLine(Map.of(), sink, sink);
    List<String> takesAnExcludedType = new ArrayList<>();
    List<CommandLine> commands = new ArrayList<>(all.getSubcommands().values());
    commands.add(all);
    for (CommandLine command : commands) {
      for (ArgSpec arg : command.getCommandSpec().args()) {
        List<Class<?>> types = new ArrayList<>(List.of(arg.auxiliaryTypes()));
        types.add(arg.type());
        for (Class<?> type : types) {
          boolean ownConverter = arg.converters() != null && arg.converters().length > 0;
          if (!ownConverter && type.getName().matches(Main.UNUSED_CONVERTERS)) {
            takesAnExcludedType.add(command.getCommandName() + " " + arg + ": " + type.getName());
          }
        }
      }
    }
    assertThat(all.getSubcommands()).containsKeys(ClusterResolverCommand.SUBCOMMAND_NAMES.toArray(String[]::new));
    assertThat(takesAnExcludedType).isEmpty();
  }
}

package io.clusterresolver.cli;

/** The entry point of the command: {@code bin/cluster-resolver <command>} of the distribution. */
public final class Main {

  private Main() {}

  /**
   * The type converters picocli registers for every command line but no option of ours takes: {@code java.time}
   * and {@code java.sql} types. Registering one initializes its class by reflection, and {@code java.time}'s
   * initialize {@code DateTimeFormatter}: about 95 classes and the process's first lambda at every start (issue 23).
   */
  static final String UNUSED_CONVERTERS = "java\\.(time|sql)\\..*";

  /**
   * picocli's switch for Groovy closures in annotations, which no command of ours has: without it picocli looks
   * {@code groovy.lang.Closure} up at every start, through every jar of the class path, and fails (issue 23).
   */
  static final String NO_CLOSURES = "picocli.disable.closures";

  public static void main(String[] args) {
    // picocli's documented switch; one given to the JVM (-Dpicocli.converters.excludes=...) is kept.
    if (System.getProperty("picocli.converters.excludes") == null) {
      System.setProperty("picocli.converters.excludes", UNUSED_CONVERTERS);
    }
    if (System.getProperty(NO_CLOSURES) == null) {
      System.setProperty(NO_CLOSURES, "true");
    }
    CommandLogging.configure(System.getProperties());
    int status = ClusterResolverCommand.execute(args);
    interruptOtherThreads(Thread.currentThread().getThreadGroup());
    System.exit(status);
  }

  /**
   * Interrupts the other threads of {@code group} (this program's) once the command has answered, so that
   * none is left waiting in native code when the JVM exits: HotSpot's exit waits up to 300 ms for such
   * threads ({@code VM_Exit::wait_for_threads_in_native_to_block}), and the selector thread of the JDK's
   * {@code HttpClient}, which the azure and kubernetes SDKs use, waits in {@code epoll_wait} until it is
   * interrupted. That wait was 300 ms of every azure and kubernetes resolve (docs/benchmarks.md, issue 23).
   * Nothing of the command runs after this: its output is written and flushed, and the process exits.
   */
  static void interruptOtherThreads(ThreadGroup group) {
    Thread[] threads = new Thread[group.activeCount() + 16]; // threads may start while they are listed
    int count = group.enumerate(threads, true);
    for (int i = 0; i < count; i++) {
      if (threads[i] != Thread.currentThread()) {
        threads[i].interrupt();
      }
    }
  }
}

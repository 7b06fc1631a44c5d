package io.clusterresolver.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The provider contract (TCK): every provider's test suite extends this class and points it at a
 * simulated source of truth (a {@link SimulatedEc2}, a fake scheduler environment, …). It checks
 * what every provider promises, whatever its cloud:
 *
 * <ul>
 *   <li>the {@link java.util.ServiceLoader} entry loads, finding it loads no library's class, and every property is
 *       documented;
 *   <li>freshness: the spec follows the members between two calls of one resolver;
 *   <li>stable ordering: two resolvers over the same members compute the same spec;
 *   <li>self-identification: a process on member {@code i} is task {@code i} of the default job;
 *   <li>{@code resolve()} gives the cluster and this task from one answer, the same from 16
 *       concurrent callers as from one, and leaves no non-daemon thread behind (a program that
 *       resolves can exit);
 *   <li>faults end in a {@link ClusterResolverException} within the deadline, never a partial spec;
 *   <li>the fault matrix: every {@link Fault} the simulation can produce (throttling, 5xx, resets,
 *       truncated and malformed bodies, slow answers, page k of n failing, rejected credentials, a
 *       metadata server that is absent, slow or talks garbage) ends in the healthy answer or a typed
 *       error within {@link #faultBound()}: never a partial cluster, a hang or an untyped exception;
 *   <li>no secret appears in any {@code toString}, log line (every level of {@code io.clusterresolver.*},
 *       the configured level of other loggers) or error message;
 *   <li>detection never throws and answers quickly; unknown properties are rejected by key.
 * </ul>
 *
 * <p>Members are numbered {@code 0..n-1} in creation order; the default layout puts member
 * {@code i} at task {@code i} of job {@code worker}.
 */
public abstract class ProviderContractTest {

  /** The provider under test (a fresh instance). */
  protected abstract ClusterResolverProvider provider();

  /** Makes the source of truth hold exactly {@code n} members, numbered in creation order. */
  protected abstract void setMembers(int n);

  /**
   * Properties pointing the provider at the simulation (endpoints, region, credentials), plus
   * {@code extra}; the values of secret properties among them are checked against every output.
   */
  protected abstract Map<String, String> properties(Map<String, String> extra);

  /**
   * The address ({@code host:port}) of each task of job {@code worker}, in task order, when the source
   * holds {@code n} members ({@link #setMembers}) in the default layout: computed from the fixture's
   * own data (the simulated members' addresses and the default port), never from the provider. The
   * fault matrix compares every answer with it, so a provider that is wrong the same way every time
   * fails it.
   */
  protected abstract List<String> expectedAddresses(int n);

  /** Makes this process appear to run on member {@code index} (or on none for {@code -1}). */
  protected abstract void identifyAs(int index);

  /** Makes every further call to the source of truth fail, even after retries. */
  protected abstract void failPersistently();

  /** Makes the source of truth answer correctly again. */
  protected abstract void heal();

  /** The environment the resolver sees; empty by default. */
  protected Map<String, String> environment() {
    return Map.of();
  }

  /** How long a failing resolve may take at most (the provider's deadline plus slack). */
  protected Duration faultBound() {
    return Duration.ofSeconds(10);
  }

  /**
   * Makes the simulation produce {@code fault} (once, or until {@link #heal()} when it is
   * persistent), in the shape its API really has. Returns {@code false} when the simulation cannot
   * produce this kind: the scenario is then reported as skipped, with that reason. The default
   * produces none.
   */
  protected boolean inject(Fault fault) {
    return false;
  }

  /**
   * How many members the fault matrix lists: with {@link #pagedProperties()}, enough for the
   * listing to take at least three pages, so that a fault on page 2 hits the middle of a listing.
   */
  protected int pagedMemberCount() {
    return 3;
  }

  /** Extra properties for the fault matrix, such as a small page size; none by default. */
  protected Map<String, String> pagedProperties() {
    return Map.of();
  }

  /**
   * Whether one throttled, failed (5xx) or reset call is retried by the provider within its
   * deadline: then such a fault hitting once must still end in the healthy answer, not in an error.
   */
  protected boolean retriesTransientFaults() {
    return false;
  }

  /** Extra strings that must never appear in outputs, besides the secret property values. */
  protected Collection<String> extraSecrets() {
    return List.of();
  }

  private LogCapture logs;
  private Level previousLevel;
  private static final Logger OWN_LOGGERS = Logger.getLogger("io.clusterresolver");

  /** Our own loggers at every level; everyone else's (the JDK, SDKs) at their configured level. */
  @BeforeEach
  void captureLogs() {
    previousLevel = OWN_LOGGERS.getLevel();
    OWN_LOGGERS.setLevel(Level.ALL);
    logs = new LogCapture();
  }

  @AfterEach
  void releaseLogs() {
    logs.close();
    OWN_LOGGERS.setLevel(previousLevel);
    heal();
  }

  /** Creates a resolver through the public facade, as users do. */
  protected ClusterResolver resolver(Map<String, String> extra) {
    return ClusterResolvers.create(provider().name(), properties(extra), environment());
  }

  @Test
  void serviceLoaderFindsTheProvider() {
    ClusterResolverProvider expected = provider();
    assertThat(ClusterResolvers.providers())
        .anySatisfy(p -> {
          assertThat(p.name()).isEqualTo(expected.name());
          assertThat(p.getClass()).isEqualTo(expected.getClass());
        });
    assertThat(ClusterResolvers.provider(expected.name()).getClass()).isEqualTo(expected.getClass());
  }

  /**
   * Finding the provider ({@link java.util.ServiceLoader}: its class, its constructor, {@code name()}, {@code
   * priority()} and {@code properties()}, what {@code providers} and auto-detection ask of every provider on the class
   * path) loads no class of a library: the SDK and its client loads only when a resolver is created. Run in a class
   * loader of its own over this test's class path, which records every class it is asked for; a factory given as a
   * method reference, or an SDK type in a field or signature of the provider class, shows up here.
   */
  @Test
  void findingTheProviderLoadsNoLibraryClass() throws Exception {
    String providerClass = provider().getClass().getName();
    String ownPackage = provider().getClass().getPackageName() + ".";
    List<String> asked = java.util.Collections.synchronizedList(new ArrayList<>());
    java.net.URL[] classPath = Stream.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .map(entry -> {
          try {
            return java.nio.file.Path.of(entry).toUri().toURL();
          } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException(e);
          }
        }).toArray(java.net.URL[]::new);
    try (java.net.URLClassLoader loader = new java.net.URLClassLoader(classPath, ClassLoader.getPlatformClassLoader()) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        asked.add(name);
        return super.loadClass(name, resolve);
      }
    }) {
      Class<?> spi = loader.loadClass(ClusterResolverProvider.class.getName());
      Object found = java.util.ServiceLoader.load(spi, loader).stream()
          .filter(p -> p.type().getName().equals(providerClass)).findFirst()
          .orElseThrow(() -> new AssertionError(providerClass + " is not in META-INF/services")).get();
      for (String method : List.of("name", "priority", "properties")) {
        spi.getMethod(method).invoke(found);
      }
    }
    List<String> libraries;
    synchronized (asked) {
      libraries = asked.stream().distinct()
          .filter(name -> Stream.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "io.clusterresolver.", ownPackage)
              .noneMatch(name::startsWith))
          .toList();
    }
    assertThat(libraries).as("classes of libraries loaded by finding " + providerClass).isEmpty();
  }

  @Test
  void everyPropertyIsDocumentedAndSecretsHaveNoDefault() {
    List<ConfigProperty<?>> properties = provider().properties();
    assertThat(properties).isNotEmpty();
    for (ConfigProperty<?> p : properties) {
      assertThat(p.description()).as("description of %s", p.name()).isNotBlank();
      if (p.secret()) {
        assertThat(p.defaultValue()).as("default of secret %s", p.name()).isNull();
      }
    }
    assertThat(properties).extracting(ConfigProperty::name).doesNotHaveDuplicates();
  }

  @Test
  void specFollowsTheMembersBetweenCalls() {
    setMembers(2);
    ClusterResolver resolver = resolver(Map.of());
    ClusterSpec first = resolver.clusterSpec();
    assertThat(first.totalTasks()).isEqualTo(2);
    setMembers(3);
    ClusterSpec second = resolver.clusterSpec();
    assertThat(second.totalTasks()).isEqualTo(3);
    setMembers(1);
    assertThat(resolver.clusterSpec().totalTasks()).isEqualTo(1);
  }

  @Test
  void orderingIsStableAcrossCallsAndResolvers() {
    setMembers(5);
    ClusterSpec a = resolver(Map.of()).clusterSpec();
    ClusterSpec b = resolver(Map.of()).clusterSpec();
    assertThat(b).isEqualTo(a);
    assertThat(a.jobTasks("worker")).hasSize(5).doesNotHaveDuplicates();
  }

  @Test
  void aProcessFindsItsOwnTask() {
    setMembers(3);
    identifyAs(1);
    ClusterResolver resolver = resolver(Map.of());
    assertThat(resolver.taskType()).contains("worker");
    assertThat(resolver.taskId()).isEqualTo(OptionalInt.of(1));
    String own = resolver.clusterSpec().taskAddress("worker", 1);
    assertThat(resolver.master()).endsWith(own);

    identifyAs(-1);
    ClusterResolver stranger = resolver(Map.of());
    assertThat(stranger.taskId()).isEqualTo(strangerTaskId());
    assertThat(stranger.master()).isEqualTo(strangerTaskId().isEmpty() ? ""
        : resolver.master("worker", strangerTaskId().getAsInt(), null));
  }

  /**
   * The task of a process that runs on no member: none by default (its {@code master()} is empty).
   * TensorFlow's TPU resolver makes such a process (a client of the TPU) task 0, whose master is worker 0.
   */
  protected OptionalInt strangerTaskId() {
    return OptionalInt.empty();
  }

  @Test
  void resolveGivesTheClusterAndThisTaskFromOneAnswer() {
    setMembers(3);
    identifyAs(1);
    Resolution r = resolver(Map.of()).resolve();
    assertThat(r.clusterSpec().totalTasks()).isEqualTo(3);
    assertThat(r.taskType()).contains("worker");
    assertThat(r.taskId()).isEqualTo(OptionalInt.of(1));
    assertThat(r.master()).endsWith(r.clusterSpec().taskAddress("worker", 1));
  }

  /**
   * A program that resolves and returns from {@code main} must be able to exit: no resolve leaves a
   * non-daemon thread running (an SDK's scheduler, a connection pool) once it has answered. Threads
   * of the simulation's own server (Jetty's {@code qtp…} and {@code Connector-Scheduler…}) are not the
   * provider's.
   */
  @Test
  void aResolveLeavesNoThreadThatKeepsTheProcessAlive() throws Exception {
    setMembers(3);
    identifyAs(1);
    java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
    ClusterResolver resolver = resolver(unhurried());
    resolver.resolve();
    resolver.clusterSpec();
    // A thread whose work is done may still need the CPU to exit (a loaded machine gives it none for seconds), so
    // each one left is waited for until it ends, up to a bound far above that: one that keeps the process alive
    // never ends.
    long end = System.nanoTime() + THREAD_EXIT_BOUND.toNanos();
    List<Thread> alive = nonDaemonThreadsStartedSince(before);
    while (!alive.isEmpty() && end - System.nanoTime() > 0) {
      alive.get(0).join(Math.max(1, (end - System.nanoTime()) / 1_000_000));
      alive = nonDaemonThreadsStartedSince(before);
    }
    List<String> left = alive.stream()
        .map(t -> t.getName() + " " + t.getState() + " " + java.util.Arrays.stream(t.getStackTrace()).limit(12)
            .map(StackTraceElement::toString).collect(java.util.stream.Collectors.joining(" < ")))
        .collect(java.util.stream.Collectors.toList());
    assertThat(left).as("non-daemon threads started by a resolve and still running").isEmpty();
  }

  /**
   * A generous {@code timeout} (60 s) when the provider declares one, for a test that asserts something other than
   * time: a cold JVM's first resolve on a machine at load 30 took longer than the 5 s a simulation's properties give.
   */
  private Map<String, String> unhurried() {
    ClusterResolverProvider p = provider();
    return p.properties().stream().anyMatch(d -> d.name().equals("timeout"))
        ? Map.of(ConfigProperty.PREFIX + p.name() + ".timeout", "60s") : Map.of();
  }

  /** How long a thread a resolve started may take to exit after it: generous, for a machine at load 30. */
  private static final Duration THREAD_EXIT_BOUND = Duration.ofSeconds(20);

  /** The live non-daemon threads not in {@code before}, but the simulations' server threads. */
  private static List<Thread> nonDaemonThreadsStartedSince(java.util.Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && !t.isDaemon() && !before.contains(t) && !t.getName().startsWith("qtp")
            && !t.getName().startsWith("Connector-Scheduler"))
        .collect(java.util.stream.Collectors.toList());
  }

  @Test
  void concurrentResolvesAllGiveTheSingleThreadedAnswer() throws Exception {
    setMembers(4);
    identifyAs(2);
    ClusterResolver resolver = resolver(Map.of());
    Resolution expected = resolver.resolve();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Resolution>> results = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        results.add(pool.submit(resolver::resolve));
      }
      for (Future<Resolution> result : results) {
        assertThat(result.get(faultBound().toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(expected);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void explicitTaskOverridesWin() {
    setMembers(3);
    identifyAs(1);
    ClusterResolver resolver = resolver(Map.of(
        ConfigProperty.PREFIX + provider().name() + ".task-type", "worker",
        ConfigProperty.PREFIX + provider().name() + ".task-id", "2"));
    assertThat(resolver.taskType()).contains("worker");
    assertThat(resolver.taskId()).isEqualTo(OptionalInt.of(2));
  }

  @Test
  void aFailingSourceEndsInATypedErrorWithinTheBoundNeverAPartialSpec() {
    setMembers(3);
    ClusterResolver resolver = resolver(Map.of());
    failPersistently();
    long start = System.nanoTime();
    Throwable thrown = catchThrowable(resolver::clusterSpec);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(thrown).isInstanceOf(ClusterResolverException.class);
    assertThat(thrown.getMessage()).contains(provider().name());
    assertThat(took).isLessThan(faultBound());
    heal();
    assertThat(resolver.clusterSpec().totalTasks()).isEqualTo(3);
  }

  @TestFactory
  Stream<DynamicTest> faultMatrix() {
    return FaultMatrix.scenarios(faultBound()).stream()
        .map(fault -> DynamicTest.dynamicTest(fault.toString(), () -> runFaultScenario(fault)));
  }

  private void runFaultScenario(Fault fault) {
    String name = provider().name();
    heal();
    setMembers(pagedMemberCount());
    identifyAs(0);
    ClusterResolver resolver = resolver(pagedProperties());
    Resolution healthy = resolver.resolve();
    ClusterSpec fixture = ClusterSpec.builder().addJob("worker", expectedAddresses(pagedMemberCount())).build();
    Resolution expected = Resolution.builder(fixture).taskType("worker").taskId(0).build();
    assertThat(healthy.clusterSpec()).as("healthy answer, against the fixture").isEqualTo(fixture);
    assertThat(healthy.taskType()).as("healthy answer's task type").contains("worker");
    assertThat(healthy.taskId()).as("healthy answer's task index").hasValue(0);
    if (!inject(fault)) {
      FaultMatrix.record(name, fault, "not simulated");
      Assumptions.abort("the simulation of " + name + " cannot produce " + fault);
    }
    // The identity is asked once per resolver: a metadata fault is seen by a resolver created under it.
    ClusterResolver underFault = fault.kind().metadata() ? resolver(pagedProperties()) : resolver;
    FaultMatrix.Outcome outcome = FaultMatrix.run(underFault::resolve, expected, fault.kind().metadata(), faultBound());
    heal();
    FaultMatrix.record(name, fault, outcome.summary());

    assertThat(outcome.ending()).as("%s under %s", name, fault).isNotIn(
        FaultMatrix.Ending.WRONG_CLUSTER, FaultMatrix.Ending.UNEXPECTED_EXCEPTION, FaultMatrix.Ending.HANG);
    assertThat(outcome.took()).as("time to the outcome under %s", fault).isLessThan(faultBound());
    if (fault.persistent() && !fault.kind().metadata()) {
      assertThat(outcome.ending().typedError()).as("%s under %s: %s", name, fault, outcome.summary()).isTrue();
    }
    boolean retriable = fault.kind() == Fault.Kind.THROTTLED || fault.kind() == Fault.Kind.SERVER_ERROR
        || fault.kind() == Fault.Kind.CONNECTION_RESET;
    if (!fault.persistent() && (fault.kind() == Fault.Kind.SLOW || retriable && retriesTransientFaults())) {
      assertThat(outcome.ending()).as("%s under %s: %s", name, fault, outcome.summary())
          .isEqualTo(FaultMatrix.Ending.RIGHT_CLUSTER);
    }
    if (outcome.ending() == FaultMatrix.Ending.SOURCE_ERROR) {
      assertThat(outcome.thrown().getMessage()).contains(name);
    }
    assertThat(resolver.resolve().clusterSpec()).as("the answer once healed").isEqualTo(fixture);
  }

  @Test
  void noSecretInAnyOutput() {
    setMembers(2);
    identifyAs(0);
    List<String> outputs = new ArrayList<>();
    // Every logger at every level (the SDKs' and the JDK's HTTP loggers included), unless a provider
    // holds one coarser on purpose: a user who turns logging up must not find a token in the log.
    Logger root = Logger.getLogger("");
    Level rootLevel = root.getLevel();
    root.setLevel(Level.ALL);
    Throwable failure;
    try {
      ClusterResolver resolver = resolver(Map.of());
      outputs.add(resolver.toString());
      outputs.add(resolver.clusterSpec().toString());
      outputs.add(resolver.master());
      failPersistently();
      failure = catchThrowable(resolver::clusterSpec);
    } finally {
      root.setLevel(rootLevel);
    }
    heal();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      outputs.add(String.valueOf(t.getMessage()));
      outputs.add(t.toString());
    }
    Throwable invalid = catchThrowable(() -> ClusterResolvers.create(provider().name(),
        properties(Map.of(ConfigProperty.PREFIX + provider().name() + ".no-such-property", "x")), environment()));
    assertThat(invalid).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ConfigProperty.PREFIX + provider().name() + ".no-such-property");
    outputs.add(invalid.getMessage());
    for (LogRecord record : logs.records()) {
      outputs.add(String.valueOf(record.getMessage()));
      if (record.getParameters() != null) {
        for (Object p : record.getParameters()) {
          outputs.add(String.valueOf(p));
        }
      }
    }
    List<String> secrets = new ArrayList<>(extraSecrets());
    Map<String, String> props = properties(Map.of());
    for (ConfigProperty<?> p : provider().properties()) {
      String value = props.get(p.key(provider().name()));
      if (p.secret() && value != null && !value.isEmpty()) {
        secrets.add(value);
      }
    }
    assertThat(secrets).as("the suite must configure at least one secret to check").isNotEmpty();
    for (String output : outputs) {
      for (String secret : secrets) {
        assertThat(output).doesNotContain(secret);
      }
    }
  }

  @Test
  void detectionNeverThrowsAndIsQuick() {
    ResolverContext context = ResolverContext.of(PropertySources.of(Map.of(), Map.of(), environment(), Map.of()));
    long start = System.nanoTime();
    provider().isAvailable(context);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
  }

  @Test
  void invalidValuesAreRejectedNamingTheKey() {
    String key = ConfigProperty.PREFIX + provider().name() + ".port";
    assertThatThrownBy(() -> ClusterResolvers.create(provider().name(), properties(Map.of(key, "not-a-port")),
        environment()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(key);
  }
}

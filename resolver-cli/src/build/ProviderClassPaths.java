import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.spi.ToolProvider;
import java.util.regex.Pattern;

/**
 * Build step of the distribution (run from resolver-cli/pom.xml at prepare-package with {@code java
 * ProviderClassPaths.java}): for each provider the command carries, the jars a {@code resolve --provider NAME}
 * needs, one file {@code NAME.classpath} of jar file names per provider, which bin/cluster-resolver puts on the
 * class path instead of the whole of lib/.
 *
 * <p>The jars of a provider are its module and everything it depends on; the command's own jars are the
 * modules that the classes a {@code resolve} runs link to (jdeps, class by class from the main class, not into the
 * other commands: see {@link #linkedFromResolve}) and the command's runtime-only dependencies, with everything
 * they depend on. Dependencies come from Maven's resolution of this module: the verbose dependency tree (an
 * artifact's dependencies are written out once, then named "omitted for duplicate") and the list of resolved
 * artifacts with their files. A provider's name is what its {@code name()} answers, read from the built jars
 * through ServiceLoader, as the command finds it. Jars outside lib/ (the simulations, TensorFlow) may be named;
 * the launcher leaves out what lib/ does not hold.
 *
 * <p>It also writes {@code catalog.txt}: every provider's name, property keys and environment variables, so
 * that a resolve with only one provider on the class path still knows the others' settings (they are not
 * typos) and names.
 *
 * <p>Arguments: the dependency tree, the dependency list (with absolute file names), the command's classes
 * directory, the command's jar (its path in lib/), the output directory.
 */
public final class ProviderClassPaths {

  private static final String SPI = "io.clusterresolver.spi.ClusterResolverProvider";
  /** The command's main class, and the command whose subcommands {@link #linkedFromResolve} does not follow. */
  private static final String MAIN = "io.clusterresolver.cli.Main";
  private static final String COMMAND = "io.clusterresolver.cli.ClusterResolverCommand";
  private static final String RESOLVE = "resolve";
  /** A tree line: the branch drawing, then {@code group:artifact:type[:classifier]:version:scope}. */
  private static final Pattern BRANCH = Pattern.compile("^[| ]*[+\\\\]- ");

  private record Artifact(String key, String fileName, Path file, String scope) {}

  public static void main(String[] args) throws Exception {
    Path tree = Path.of(args[0]);
    Path list = Path.of(args[1]);
    Path classes = Path.of(args[2]);
    String commandJar = args[3];
    Path out = Path.of(args[4]);

    Map<String, Artifact> artifacts = resolved(list);
    Map<String, Set<String>> dependencies = new HashMap<>();
    List<String> direct = dependencyTree(tree, dependencies);
    Map<Path, String> byFile = new HashMap<>();
    artifacts.values().forEach(a -> byFile.put(a.file().toAbsolutePath().normalize(), a.key()));

    Files.createDirectories(out);
    List<String> catalog = new ArrayList<>();
    Map<String, String> providers;
    Set<String> commandRoots;
    try (URLClassLoader loader = loader(classes, artifacts.values())) {
      providers = providerModules(loader, byFile, catalog);
      commandRoots = linkedFromResolve(classes, loader, artifacts.values(), byFile);
    }
    for (String key : direct) {
      if (!"compile".equals(artifacts.get(key).scope())) {
        commandRoots.add(key); // runtime-only: nothing links to it, it is there to be found (slf4j's binding)
      }
    }
    Set<String> command = closure(commandRoots, dependencies);
    Files.write(out.resolve("catalog.txt"), catalog);
    if (providers.isEmpty()) {
      throw new IllegalStateException("no " + SPI + " found on " + list + ": is the dependency list complete?");
    }
    for (Map.Entry<String, String> provider : providers.entrySet()) {
      Set<String> needed = new LinkedHashSet<>(command);
      needed.addAll(closure(Set.of(provider.getValue()), dependencies));
      List<String> lines = new ArrayList<>(List.of(commandJar));
      for (Artifact artifact : artifacts.values()) { // Maven's class-path order
        if (needed.contains(artifact.key())) {
          lines.add(artifact.fileName());
        }
      }
      Files.write(out.resolve(provider.getKey() + ".classpath"), lines);
      System.out.printf("%s: %d jars of %d%n", provider.getKey(), lines.size(), artifacts.size());
    }
  }

  /** {@code group:artifact:type[:classifier]:version:scope:file} lines of dependency:list, in order. */
  private static Map<String, Artifact> resolved(Path list) throws IOException {
    Map<String, Artifact> artifacts = new LinkedHashMap<>();
    for (String line : Files.readAllLines(list)) {
      String[] parts = line.trim().split(":", -1);
      if (parts.length < 6 || line.startsWith("The following")) {
        continue;
      }
      boolean classified = !parts[4].matches("compile|runtime|provided|system|test");
      String classifier = classified ? parts[3] : "";
      String version = parts[classified ? 4 : 3];
      String scope = parts[classified ? 5 : 4];
      String file = String.join(":", List.of(parts).subList(classified ? 6 : 5, parts.length));
      if (scope.equals("test") || scope.equals("provided")) {
        continue;
      }
      String name = parts[1] + "-" + version + (classifier.isEmpty() ? "" : "-" + classifier) + "." + parts[2];
      String key = parts[0] + ":" + parts[1];
      artifacts.put(key, new Artifact(key, name, Path.of(file.split(" ")[0]), scope));
    }
    return artifacts;
  }

  /** Fills each artifact's dependencies (group:artifact) from the verbose tree; answers the direct ones. */
  private static List<String> dependencyTree(Path tree, Map<String, Set<String>> dependencies) throws IOException {
    List<String> direct = new ArrayList<>();
    Deque<String> parents = new ArrayDeque<>(); // parents.peek() is the parent at the current depth
    List<String> lines = Files.readAllLines(tree);
    parents.push(key(lines.get(0)));
    for (String line : lines.subList(1, lines.size())) {
      var branch = BRANCH.matcher(line);
      if (!branch.find()) {
        continue;
      }
      int depth = branch.end() / 3;
      while (parents.size() > depth) {
        parents.pop();
      }
      String text = line.substring(branch.end());
      boolean omitted = text.startsWith("(");
      String key = key(omitted ? text.substring(1) : text);
      if (text.contains("omitted for cycle")) {
        continue;
      }
      dependencies.computeIfAbsent(parents.peek(), k -> new LinkedHashSet<>()).add(key);
      if (depth == 1) {
        direct.add(key);
      }
      parents.push(key); // an omitted artifact has no children here: they are written where it is not omitted
    }
    return direct;
  }

  private static String key(String coordinates) {
    String[] parts = coordinates.split("[: ]");
    return parts[0] + ":" + parts[1];
  }

  private static Set<String> closure(Set<String> roots, Map<String, Set<String>> dependencies) {
    Set<String> all = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(roots);
    while (!todo.isEmpty()) {
      String key = todo.pop();
      if (all.add(key)) {
        todo.addAll(dependencies.getOrDefault(key, Set.of()));
      }
    }
    return all;
  }

  /**
   * The artifacts (group:artifact) that the classes a {@code resolve} runs refer to: jdeps' class-level
   * dependencies of the command's classes in {@code classes}, followed from {@link #MAIN}. They are not followed
   * from {@link #COMMAND} into its other subcommands: the launcher gives those all of lib/, and with
   * {@code resolve} as its first argument the command registers {@code resolve} alone and names the others only
   * as class literals of its list, which load each (and its supertypes, whose artifacts are kept) without linking
   * it. A class of the command that another one refers to is followed as any other.
   */
  private static Set<String> linkedFromResolve(Path classes, URLClassLoader loader, Iterable<Artifact> artifacts,
      Map<Path, String> byFile) throws Exception {
    Map<String, Set<String>> edges = classDependencies(classes, artifacts);
    Set<String> others = new LinkedHashSet<>();
    Set<String> linked = new LinkedHashSet<>();
    Class<?> command = loader.loadClass(COMMAND);
    List<?> subcommands = (List<?>) staticField(command, "SUBCOMMANDS");
    List<?> names = (List<?>) staticField(command, "SUBCOMMAND_NAMES");
    for (int i = 0; i < subcommands.size(); i++) {
      Class<?> subcommand = (Class<?>) subcommands.get(i);
      if (!RESOLVE.equals(names.get(i))) {
        others.add(subcommand.getName());
        for (Class<?> type = subcommand.getSuperclass(); type != null; type = type.getSuperclass()) {
          addArtifact(type.getName(), loader, byFile, linked);
        }
        for (Class<?> type : subcommand.getInterfaces()) {
          addArtifact(type.getName(), loader, byFile, linked);
        }
      }
    }
    if (others.size() != subcommands.size() - 1) {
      throw new IllegalStateException(COMMAND + " names no '" + RESOLVE + "' command: " + names);
    }
    Set<String> reached = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(List.of(MAIN));
    while (!todo.isEmpty()) {
      String type = todo.pop();
      if (!reached.add(type)) {
        continue;
      }
      for (String target : edges.getOrDefault(type, Set.of())) {
        if (edges.containsKey(target)) { // one of the command's classes
          if (!(type.equals(COMMAND) && others.contains(target))) {
            todo.push(target);
          }
        } else {
          addArtifact(target, loader, byFile, linked);
        }
      }
    }
    if (!reached.contains(COMMAND) || linked.isEmpty()) {
      throw new IllegalStateException("jdeps found no path from " + MAIN + " to " + COMMAND + " in " + classes);
    }
    return linked;
  }

  /** Each class in {@code classes} (every one, even one that refers to nothing) to the classes it refers to. */
  private static Map<String, Set<String>> classDependencies(Path classes, Iterable<Artifact> artifacts) {
    List<String> path = new ArrayList<>();
    artifacts.forEach(a -> path.add(a.file().toString()));
    StringWriter out = new StringWriter();
    int status = ToolProvider.findFirst("jdeps").orElseThrow().run(new PrintWriter(out), new PrintWriter(System.err),
        "--multi-release", "base", "-verbose:class", "-filter:none", "-cp",
        String.join(java.io.File.pathSeparator, path), classes.toString());
    if (status != 0) {
      throw new IllegalStateException("jdeps failed (" + status + "): " + out);
    }
    Map<String, Set<String>> edges = new HashMap<>();
    for (String line : out.toString().split("\n")) {
      String[] words = line.trim().split("\\s+");
      if (words.length >= 3 && words[1].equals("->") && !words[0].equals(classes.getFileName().toString())) {
        edges.computeIfAbsent(words[0], k -> new LinkedHashSet<>()).add(words[2]);
      }
    }
    if (edges.isEmpty()) {
      throw new IllegalStateException("jdeps found no class in " + classes + ":\n" + out);
    }
    return edges;
  }

  /** Adds the artifact whose jar holds the class {@code type}, if one does (not the JDK's). */
  private static void addArtifact(String type, ClassLoader loader, Map<Path, String> byFile, Set<String> artifacts)
      throws Exception {
    URL url = loader.getResource(type.replace('.', '/') + ".class");
    if (url != null && url.getProtocol().equals("jar")) {
      String jar = url.getPath().substring(0, url.getPath().indexOf("!/"));
      String key = byFile.get(Path.of(new URL(jar).toURI()).toAbsolutePath().normalize());
      if (key != null) {
        artifacts.add(key);
      }
    }
  }

  private static Object staticField(Class<?> type, String name) throws ReflectiveOperationException {
    Field field = type.getDeclaredField(name);
    field.setAccessible(true);
    return field.get(null);
  }

  /** The command's classes and every resolved artifact, on no class path but the JDK's. */
  private static URLClassLoader loader(Path classes, Iterable<Artifact> artifacts) throws IOException {
    List<URL> urls = new ArrayList<>(List.of(classes.toUri().toURL()));
    for (Artifact artifact : artifacts) {
      urls.add(artifact.file().toUri().toURL());
    }
    return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  /**
   * Provider name to the artifact (group:artifact) whose jar declares it, as ServiceLoader finds them; adds to
   * {@code catalog} each provider's name, then a line per property: name, key, environment variable.
   */
  private static Map<String, String> providerModules(ClassLoader loader, Map<Path, String> byFile,
      List<String> catalog) throws Exception {
    Map<String, String> modules = new TreeMap<>();
    Class<?> spi = loader.loadClass(SPI);
    Method name = spi.getMethod("name");
    for (ServiceLoader.Provider<?> provider : ServiceLoader.load(spi, loader).stream().toList()) {
      Path jar = Path.of(provider.type().getProtectionDomain().getCodeSource().getLocation().toURI());
      String module = byFile.get(jar.toAbsolutePath().normalize());
      if (module == null) {
        throw new IllegalStateException(provider.type() + " comes from " + jar + ", not a resolved dependency");
      }
      Object instance = provider.get();
      String providerName = (String) name.invoke(instance);
      modules.put(providerName, module);
      catalog.add(providerName);
      for (Object property : (List<?>) spi.getMethod("properties").invoke(instance)) {
        Method key = property.getClass().getMethod("key", String.class);
        Method variable = property.getClass().getMethod("environmentVariable", String.class);
        catalog.add(providerName + " " + key.invoke(property, providerName) + " "
            + variable.invoke(property, providerName));
      }
    }
    return modules;
  }
}

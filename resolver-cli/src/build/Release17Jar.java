import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Rebuilds a library's jar from its own sources jar, compiled for Java 17: every entry of the jar as it
 * was (manifest, resources, META-INF/versions/), its classes replaced by the compiled ones, and the build
 * fails when a class of the jar has no compiled counterpart. Why (issue 23): picocli ships Java 5 class
 * files, which Java 17 checks with the old type-inferring verifier (~35 ms of CPU at every start of the
 * command) and never puts in a class-data-sharing archive. Compiled with {@code -XDstringConcat=inline}
 * like our modules, so no string-concatenation classes are spun at start. Usage:
 * {@code java Release17Jar.java JAR SOURCES_JAR OUT_JAR WORK_DIR}
 */
public final class Release17Jar {

  public static void main(String[] args) throws IOException {
    Path jar = Path.of(args[0]);
    Path sourcesJar = Path.of(args[1]);
    Path out = Path.of(args[2]);
    Path work = Path.of(args[3]);
    Path sources = work.resolve("sources");
    Path classes = work.resolve("classes");
    deleteTree(work);
    Files.createDirectories(classes);
    List<String> javaFiles = unpackSources(sourcesJar, sources);

    List<String> javac = new ArrayList<>(List.of("--release", "17", "-XDstringConcat=inline", "-proc:none",
        "-nowarn", "-Xlint:none", "-encoding", "UTF-8", "-d", classes.toString()));
    javac.addAll(javaFiles);
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    if (compiler.run(null, null, null, javac.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("javac failed on the sources of " + sourcesJar);
    }

    Set<String> missing = new TreeSet<>();
    Files.createDirectories(out.toAbsolutePath().getParent());
    try (ZipFile original = new ZipFile(jar.toFile());
        OutputStream file = Files.newOutputStream(out);
        ZipOutputStream zip = new ZipOutputStream(file)) {
      for (Enumeration<? extends ZipEntry> entries = original.entries(); entries.hasMoreElements(); ) {
        ZipEntry entry = entries.nextElement();
        String name = entry.getName();
        boolean isClass = name.endsWith(".class") && !name.startsWith("META-INF/");
        ZipEntry copy = new ZipEntry(name);
        copy.setTime(entry.getTime());
        zip.putNextEntry(copy);
        if (isClass) {
          Path compiled = classes.resolve(name);
          if (Files.isRegularFile(compiled)) {
            Files.copy(compiled, zip);
          } else {
            missing.add(name);
          }
        } else if (!entry.isDirectory()) {
          try (InputStream in = original.getInputStream(entry)) {
            in.transferTo(zip);
          }
        }
        zip.closeEntry();
      }
    }
    if (!missing.isEmpty()) {
      Files.delete(out);
      throw new IllegalStateException("no class compiled from " + sourcesJar + " for " + missing
          + " of " + jar + ": is the sources jar of the same version?");
    }
  }

  private static List<String> unpackSources(Path sourcesJar, Path into) throws IOException {
    List<String> javaFiles = new ArrayList<>();
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(sourcesJar))) {
      for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
        // module-info: the jar keeps its own (META-INF/versions/9/), made for the same packages.
        if (!entry.getName().endsWith(".java") || entry.getName().endsWith("module-info.java")) {
          continue;
        }
        Path target = into.resolve(entry.getName()).normalize();
        if (!target.startsWith(into)) {
          throw new IOException("entry outside the sources jar's root: " + entry.getName());
        }
        Files.createDirectories(target.getParent());
        Files.copy(in, target);
        javaFiles.add(target.toString());
      }
    }
    return javaFiles;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.delete(path);
      }
    }
  }
}

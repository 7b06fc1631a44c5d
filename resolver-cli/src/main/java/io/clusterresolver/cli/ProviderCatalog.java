package io.clusterresolver.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Set;
import java.util.TreeSet;

/**
 * The providers the distribution carries, by name, property key and environment variable, written at build
 * time next to the command's jar ({@code lib/providers/catalog.txt}, for {@code lib/} and {@code lib/command/}).
 * The launcher puts only one provider's jars on the class path for {@code resolve --provider NAME}; the
 * others' settings in a shared file or environment are still theirs, not typos, and their names are still
 * known. Empty outside a distribution (the class path then holds what it holds).
 */
record ProviderCatalog(Set<String> names, Set<String> keys, Set<String> variables) {

  static final ProviderCatalog NONE = new ProviderCatalog(Set.of(), Set.of(), Set.of());

  private static ProviderCatalog distribution;

  /** The catalog next to the jar this class came from, read once; {@link #NONE} without one. */
  static synchronized ProviderCatalog ofDistribution() {
    if (distribution == null) {
      distribution = read(catalogFile());
    }
    return distribution;
  }

  private static Path catalogFile() {
    CodeSource source = ProviderCatalog.class.getProtectionDomain().getCodeSource();
    try {
      Path jar = source == null ? null : Path.of(source.getLocation().toURI());
      Path lib = jar == null ? null : jar.getParent();
      if (lib != null && lib.getFileName() != null && lib.getFileName().toString().equals("command")) {
        lib = lib.getParent(); // lib/command/: the launcher's copy of the command's jar
      }
      return lib == null ? null : lib.resolve("providers/catalog.txt");
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  static ProviderCatalog read(Path file) {
    if (file == null || !Files.isRegularFile(file)) {
      return NONE;
    }
    Set<String> names = new TreeSet<>();
    Set<String> keys = new TreeSet<>();
    Set<String> variables = new TreeSet<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String[] parts = line.trim().split(" ");
        if (parts[0].isEmpty()) {
          continue;
        }
        names.add(parts[0]);
        if (parts.length == 3) {
          keys.add(parts[1]);
          variables.add(parts[2]);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + " (part of the distribution: reinstall it)", e);
    }
    return new ProviderCatalog(Set.copyOf(names), Set.copyOf(keys), Set.copyOf(variables));
  }
}

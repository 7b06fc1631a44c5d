import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites each signed jar of a directory without its signature files (META-INF/*.SF, *.RSA, *.DSA,
 * *.EC, SIG-*), every other entry as it was. Why (issue 23): the JVM checks a signed jar's digests and
 * its PKCS#7 signature as its classes load, which loads the security providers, and class data sharing
 * never archives a class of a signed jar; a launcher starting on the distribution's own jars gains
 * nothing from the signatures. Usage: java UnsignedJars.java DIR
 */
public final class UnsignedJars {

  public static void main(String[] args) throws IOException {
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(Path.of(args[0]), "*.jar")) {
      for (Path jar : jars) {
        if (signed(jar)) {
          Path unsigned = jar.resolveSibling(jar.getFileName() + ".unsigned");
          withoutSignature(jar, unsigned);
          Files.move(unsigned, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static boolean signed(Path jar) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      return zip.stream().anyMatch(e -> isSignature(e.getName()));
    }
  }

  /** The names {@code java.util.jar.JarFile} takes for signature-related files. */
  private static boolean isSignature(String name) {
    String upper = name.toUpperCase(Locale.ROOT);
    if (!upper.startsWith("META-INF/") || upper.indexOf('/', "META-INF/".length()) >= 0) {
      return false;
    }
    String file = upper.substring("META-INF/".length());
    return file.endsWith(".SF") || file.endsWith(".RSA") || file.endsWith(".DSA") || file.endsWith(".EC")
        || file.startsWith("SIG-");
  }

  private static void withoutSignature(Path from, Path to) throws IOException {
    try (ZipFile zip = new ZipFile(from.toFile()); OutputStream file = Files.newOutputStream(to);
        ZipOutputStream out = new ZipOutputStream(file)) {
      for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
        ZipEntry entry = entries.nextElement();
        if (isSignature(entry.getName())) {
          continue;
        }
        ZipEntry copy = new ZipEntry(entry);
        copy.setCompressedSize(-1); // deflated afresh: its compressed size is the new stream's
        out.putNextEntry(copy);
        try (InputStream in = zip.getInputStream(entry)) {
          in.transferTo(out);
        }
        out.closeEntry();
      }
    }
  }
}

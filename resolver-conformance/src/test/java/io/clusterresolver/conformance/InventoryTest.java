package io.clusterresolver.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Reports every file of the conformance directory: run by an area of this build, documentation,
 * belonging to an area whose runner is not in this build, or unknown (no area handles it).
 */
class InventoryTest {

  @TestFactory
  Stream<DynamicTest> inventory() {
    List<String> files = ConformanceData.files();
    List<DynamicTest> tests = new ArrayList<>();
    int[] counts = new int[4];
    for (String file : files) {
      Optional<String> area = ConformanceData.areaOf(file);
      tests.add(DynamicTest.dynamicTest(file, () -> {
        if (area.isEmpty()) {
          counts[3]++;
          throw new AssertionFailedError("unknown file: no conformance area handles " + file
              + " (add its pattern and runner to ConformanceData.AREAS)");
        }
        String runner = ConformanceData.AREAS.get(area.get());
        if (runner.isEmpty()) {
          counts[1]++;
          return;
        }
        if (!exists(runner)) {
          counts[2]++;
          throw new TestAbortedException("no runner in this build for " + file + " (" + runner + " is not present)");
        }
        counts[0]++;
      }));
    }
    tests.add(DynamicTest.dynamicTest("inventory", () -> System.out.println(
        "conformance inventory [" + ConformanceData.directory() + "]: " + files.size() + " files, "
            + counts[0] + " run by this build, " + counts[1] + " documentation, " + counts[2]
            + " without a runner in this build, " + counts[3] + " unknown")));
    return tests.stream();
  }

  private static boolean exists(String className) {
    try {
      Class.forName(className, false, InventoryTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}

package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A note is said the first time only; a source remembers at most {@link OnceNoted#MAX_NOTED}, then says new ones. */
class OnceNotedTest {

  /** The records logged, as "LEVEL message". */
  private final List<String> logged = new ArrayList<>();

  private final Logger log = new Logger() {
    @Override
    public String getName() {
      return "test";
    }

    @Override
    public boolean isLoggable(Level level) {
      return true;
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
      logged.add(level + " " + message);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
      logged.add(level + " " + format);
    }
  };

  @Test
  void eachNoteIsFirstOnce() {
    OnceNoted noted = new OnceNoted();
    assertThat(noted.first("projects/p/zones/z/instances/1")).isTrue();
    assertThat(noted.first("projects/p/zones/z/instances/1")).isFalse();
    assertThat(noted.first("projects/p/zones/z/instances/2")).isTrue();
    assertThat(new OnceNoted().first("projects/p/zones/z/instances/1")).as("another source's notes").isTrue();
  }

  @Test
  void aMessageIsLoggedAndBuiltOnlyTheFirstTime() {
    OnceNoted noted = new OnceNoted();
    AtomicInteger built = new AtomicInteger();
    for (int resolve = 0; resolve < 3; resolve++) {
      noted.log(log, Level.INFO, "type v9-8", () -> "tpu: type v9-8 #" + built.incrementAndGet());
      noted.log(log, Level.WARNING, "node n UNHEALTHY", () -> "tpu: node n UNHEALTHY");
    }
    assertThat(logged).containsExactly("INFO tpu: type v9-8 #1", "WARNING tpu: node n UNHEALTHY");
    assertThat(built).hasValue(1);
  }

  @Test
  void pastTheBoundANewNoteIsSaidEveryTimeAndAnOldOneStillOnce() {
    OnceNoted noted = new OnceNoted();
    for (int i = 0; i < OnceNoted.MAX_NOTED; i++) {
      assertThat(noted.first("i-" + i)).isTrue();
    }
    assertThat(noted.first("i-new")).isTrue();
    assertThat(noted.first("i-new")).as("not remembered: said again, never silenced").isTrue();
    assertThat(noted.first("i-0")).isFalse();
  }
}

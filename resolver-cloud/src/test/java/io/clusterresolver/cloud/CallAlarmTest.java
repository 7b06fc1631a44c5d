package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CallAlarmTest {

  private final ServerSocket server = newServer();
  private Thread serving;

  private static ServerSocket newServer() {
    try {
      return new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Answers one request with {@code answer}, written {@code chunk} bytes at a time, {@code pauseMillis} apart. */
  private URL serving(String answer, int chunk, long pauseMillis) throws IOException {
    serving = new Thread(() -> {
      try (Socket socket = server.accept()) {
        InputStream in = socket.getInputStream();
        byte[] request = new byte[4096];
        in.read(request); // the request line and headers: not checked here
        OutputStream out = socket.getOutputStream();
        byte[] bytes = answer.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < bytes.length; i += chunk) {
          out.write(bytes, i, Math.min(chunk, bytes.length - i));
          out.flush();
          Thread.sleep(pauseMillis);
        }
      } catch (IOException | InterruptedException e) {
        // the client closed the connection: what the alarm is for
      }
    });
    serving.setDaemon(true);
    serving.start();
    return new URL("http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + server.getLocalPort() + "/x");
  }

  @AfterEach
  void close() throws Exception {
    server.close();
    if (serving != null) {
      serving.interrupt();
      serving.join(TimeUnit.SECONDS.toMillis(5));
    }
  }

  @Test
  void headersTrickledPastTheDeadlineAreCutOffAtTheDeadline() throws Exception {
    // 60 header lines a byte every 20 ms: about 30 s, each read well within the 2 s read timeout.
    String answer = "HTTP/1.1 200 OK\r\n" + "X-Slow: y\r\n".repeat(60) + "Content-Length: 0\r\n\r\n";
    URL url = serving(answer, 1, 20);
    CallAlarm alarm = new CallAlarm(AnswerLimit.ofBytes(1 << 20)::open, 300);
    long start = System.nanoTime();
    assertThatThrownBy(() -> {
      HttpURLConnection http = alarm.open(url);
      http.setReadTimeout(2_000);
      http.getResponseCode();
    }).isInstanceOf(IOException.class);
    alarm.close();
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(alarm.rang()).isTrue();
    assertThat(tookMillis).isGreaterThanOrEqualTo(300).isLessThan(10_000);
    assertThatThrownBy(() -> alarm.open(url)).isInstanceOf(IOException.class).hasMessageContaining("time is up");
  }

  @Test
  void anAnswerInTimeIsLeftAloneAndItsBodyReadAfterTheAlarmIsClosed() throws Exception {
    URL url = serving("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello", 64, 1);
    CallAlarm alarm = new CallAlarm(AnswerLimit.ofBytes(1 << 20)::open, 5_000);
    HttpURLConnection http = alarm.open(url);
    http.setReadTimeout(5_000);
    assertThat(http.getResponseCode()).isEqualTo(200);
    alarm.close();
    try (InputStream body = http.getInputStream()) {
      assertThat(new String(body.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("hello");
    }
    assertThat(alarm.rang()).isFalse();
  }
}

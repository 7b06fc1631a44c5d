package io.clusterresolver.cloud;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.ProtocolException;
import java.net.URL;
import java.security.Permission;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * An {@link HttpURLConnection} whose answer bodies are read under an {@link AnswerLimit}: the read
 * timeout the client sets bounds the whole exchange, from the first byte sent to the last byte of
 * the body, instead of each single read. Everything else is the wrapped connection's.
 */
final class BoundedHttpConnection extends HttpURLConnection {

  private final HttpURLConnection delegate;
  private final AnswerLimit limit;
  private long startNanos;
  /** The time given with {@link AnswerLimit#TIME_HEADER}, or 0. */
  private long givenMillis;

  BoundedHttpConnection(HttpURLConnection delegate, AnswerLimit limit) {
    super(delegate.getURL());
    this.delegate = delegate;
    this.limit = limit;
  }

  private synchronized void started() {
    if (startNanos == 0) {
      startNanos = System.nanoTime();
    }
  }

  private InputStream bounded(InputStream body) {
    if (body == null) {
      return null;
    }
    long budget = delegate.getReadTimeout() > 0 ? delegate.getReadTimeout() : Long.MAX_VALUE / 2_000_000;
    if (givenMillis > 0) {
      budget = Math.min(budget, givenMillis);
    }
    long left = budget - (System.nanoTime() - startNanos) / 1_000_000;
    URL u = delegate.getURL();
    String endpoint = u.getProtocol() + "://" + u.getAuthority() + u.getPath();
    return limit.bound(body, endpoint, Duration.ofMillis(Math.max(1, left)));
  }

  @Override
  public void connect() throws IOException {
    started();
    delegate.connect();
  }

  @Override
  public OutputStream getOutputStream() throws IOException {
    started();
    return delegate.getOutputStream();
  }

  @Override
  public int getResponseCode() throws IOException {
    started();
    return delegate.getResponseCode();
  }

  @Override
  public InputStream getInputStream() throws IOException {
    started();
    return bounded(delegate.getInputStream());
  }

  @Override
  public InputStream getErrorStream() {
    started();
    return bounded(delegate.getErrorStream());
  }

  @Override
  public String getResponseMessage() throws IOException {
    return delegate.getResponseMessage();
  }

  @Override
  public void disconnect() {
    delegate.disconnect();
  }

  @Override
  public boolean usingProxy() {
    return delegate.usingProxy();
  }

  @Override
  public void setRequestMethod(String method) throws ProtocolException {
    delegate.setRequestMethod(method);
  }

  @Override
  public String getRequestMethod() {
    return delegate.getRequestMethod();
  }

  @Override
  public void setInstanceFollowRedirects(boolean followRedirects) {
    delegate.setInstanceFollowRedirects(followRedirects);
  }

  @Override
  public boolean getInstanceFollowRedirects() {
    return delegate.getInstanceFollowRedirects();
  }

  @Override
  public void setFixedLengthStreamingMode(int contentLength) {
    delegate.setFixedLengthStreamingMode(contentLength);
  }

  @Override
  public void setFixedLengthStreamingMode(long contentLength) {
    delegate.setFixedLengthStreamingMode(contentLength);
  }

  @Override
  public void setChunkedStreamingMode(int chunklen) {
    delegate.setChunkedStreamingMode(chunklen);
  }

  @Override
  public String getHeaderField(int n) {
    return delegate.getHeaderField(n);
  }

  @Override
  public String getHeaderFieldKey(int n) {
    return delegate.getHeaderFieldKey(n);
  }

  @Override
  public String getHeaderField(String name) {
    return delegate.getHeaderField(name);
  }

  @Override
  public Map<String, List<String>> getHeaderFields() {
    return delegate.getHeaderFields();
  }

  @Override
  public long getHeaderFieldDate(String name, long defaultValue) {
    return delegate.getHeaderFieldDate(name, defaultValue);
  }

  @Override
  public int getContentLength() {
    return delegate.getContentLength();
  }

  @Override
  public long getContentLengthLong() {
    return delegate.getContentLengthLong();
  }

  @Override
  public String getContentType() {
    return delegate.getContentType();
  }

  @Override
  public String getContentEncoding() {
    return delegate.getContentEncoding();
  }

  @Override
  public void setRequestProperty(String key, String value) {
    if (!given(key, value)) {
      delegate.setRequestProperty(key, value);
    }
  }

  @Override
  public void addRequestProperty(String key, String value) {
    if (!given(key, value)) {
      delegate.addRequestProperty(key, value);
    }
  }

  /** Takes {@link AnswerLimit#TIME_HEADER} for this connection instead of sending it. */
  private boolean given(String key, String value) {
    if (!AnswerLimit.TIME_HEADER.equalsIgnoreCase(key)) {
      return false;
    }
    try {
      givenMillis = Math.max(1, Long.parseLong(value.trim()));
    } catch (NumberFormatException e) {
      // not ours to send either; the read timeout still bounds the answer
    }
    return true;
  }

  @Override
  public String getRequestProperty(String key) {
    return delegate.getRequestProperty(key);
  }

  @Override
  public Map<String, List<String>> getRequestProperties() {
    return delegate.getRequestProperties();
  }

  @Override
  public void setConnectTimeout(int timeout) {
    delegate.setConnectTimeout(timeout);
  }

  @Override
  public int getConnectTimeout() {
    return delegate.getConnectTimeout();
  }

  @Override
  public void setReadTimeout(int timeout) {
    delegate.setReadTimeout(timeout);
  }

  @Override
  public int getReadTimeout() {
    return delegate.getReadTimeout();
  }

  @Override
  public void setDoInput(boolean doInput) {
    delegate.setDoInput(doInput);
  }

  @Override
  public boolean getDoInput() {
    return delegate.getDoInput();
  }

  @Override
  public void setDoOutput(boolean doOutput) {
    delegate.setDoOutput(doOutput);
  }

  @Override
  public boolean getDoOutput() {
    return delegate.getDoOutput();
  }

  @Override
  public void setUseCaches(boolean useCaches) {
    delegate.setUseCaches(useCaches);
  }

  @Override
  public boolean getUseCaches() {
    return delegate.getUseCaches();
  }

  @Override
  public URL getURL() {
    return delegate.getURL();
  }

  @Override
  public Permission getPermission() throws IOException {
    return delegate.getPermission();
  }

  @Override
  public String toString() {
    return "BoundedHttpConnection{" + delegate + ", " + limit + "}";
  }
}

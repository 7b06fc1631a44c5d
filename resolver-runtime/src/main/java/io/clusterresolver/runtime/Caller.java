package io.clusterresolver.runtime;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * The task a call comes from: the identity device filters are applied to.
 *
 * @param job the caller's job
 * @param task the caller's task index
 */
record Caller(String job, int task) {
  /** Header in which a client names its own task (trusted only without mutual TLS). */
  static final Metadata.Key<String> HEADER =
      Metadata.Key.of("x-cluster-task", Metadata.ASCII_STRING_MARSHALLER);

  static final Context.Key<Caller> KEY = Context.key("cluster-caller");

  /** {@code /job:J/replica:0/task:T}. */
  String name() {
    return DeviceName.taskName(job, task);
  }

  /** Parses a task name such as {@code /job:worker/replica:0/task:1}; job and task are required. */
  static Caller parse(String taskName) {
    DeviceName name = DeviceName.parse(taskName);
    if (name.job == null || name.task == null) {
      throw new IllegalArgumentException(
          "'" + taskName + "' does not name a task: it needs /job:NAME and /task:INDEX");
    }
    return new Caller(name.job, name.task);
  }

  @Override
  public String toString() {
    return name();
  }

  /**
   * Puts the caller into the call's context: from the client certificate's subject CN under mutual
   * TLS (the header is then ignored), otherwise from the header.
   */
  static ServerInterceptor interceptor(boolean fromCertificate) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        Caller caller;
        try {
          caller = fromCertificate ? fromCertificate(call) : fromHeader(headers);
        } catch (IllegalArgumentException e) {
          call.close(Status.UNAUTHENTICATED.withDescription(e.getMessage()), new Metadata());
          return new ServerCall.Listener<>() {};
        }
        return Contexts.interceptCall(Context.current().withValue(KEY, caller), call, headers, next);
      }
    };
  }

  private static Caller fromHeader(Metadata headers) {
    String value = headers.get(HEADER);
    if (value == null) {
      // Health checks may come from anyone; such callers get no context.
      return null;
    }
    return parse(value);
  }

  private static Caller fromCertificate(ServerCall<?, ?> call) {
    SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
    if (session == null) {
      throw new IllegalArgumentException("mutual TLS is required, but the call has no TLS session");
    }
    try {
      Certificate[] chain = session.getPeerCertificates();
      X509Certificate cert = (X509Certificate) chain[0];
      for (Rdn rdn : new LdapName(cert.getSubjectX500Principal().getName()).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          return parse(rdn.getValue().toString());
        }
      }
      throw new IllegalArgumentException(
          "the client certificate's subject has no CN naming a task (CN=/job:NAME/task:INDEX)");
    } catch (SSLPeerUnverifiedException | InvalidNameException e) {
      throw new IllegalArgumentException("no verified client certificate: " + e.getMessage(), e);
    }
  }
}

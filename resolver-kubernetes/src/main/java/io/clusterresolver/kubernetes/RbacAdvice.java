package io.clusterresolver.kubernetes;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The message for a 401 or 403 from the API server: which verb on which resource in which
 * namespace the caller needs, and the {@code Role} and {@code RoleBinding} that grant it, ready for
 * {@code kubectl apply -f -}. The subject is read from the API server's own message
 * ({@code User "system:serviceaccount:NS:NAME" cannot list resource "pods" …}) when it names one.
 */
final class RbacAdvice {

  private static final Pattern SERVICE_ACCOUNT = Pattern.compile("User \"system:serviceaccount:([^:\"]+):([^:\"]+)\"");
  private static final Pattern USER = Pattern.compile("User \"([^\"]+)\"");

  private RbacAdvice() {}

  /**
   * The explanation of a refused {@code list} of pods.
   *
   * @param status 401 or 403
   * @param namespace the namespace listed
   * @param apiMessage the API server's {@code Status.message}, or {@code null}
   * @param credentialsHint which property or file supplied the credentials
   * @param auditId the API server's {@code Audit-Id} of the refused request, or {@code null}
   */
  static String explain(int status, String namespace, String apiMessage, String credentialsHint, String auditId) {
    StringBuilder s = new StringBuilder("kubernetes: list pods in namespace ").append(namespace);
    if (status == 401) {
      s.append(" failed with HTTP 401 Unauthorized: the API server did not accept the credentials (")
          .append(credentialsHint).append("): an expired or revoked token, or another cluster's.");
    } else {
      s.append(" failed with HTTP ").append(status).append(" Forbidden");
      if (apiMessage != null && !apiMessage.isBlank()) {
        s.append(" (").append(apiMessage.strip()).append(')');
      }
      s.append('.');
    }
    s.append(" Request id (Audit-Id) ").append(auditId == null ? "(none)" : auditId).append('.');
    s.append(" The caller needs verb list (and get) on resource pods (API group \"\") in namespace ").append(namespace)
        .append("; grant it with kubectl apply -f - of:\n");
    String subjectKind = "ServiceAccount";
    String subjectName = "<service-account>";
    String subjectNamespace = namespace;
    Matcher sa = SERVICE_ACCOUNT.matcher(apiMessage == null ? "" : apiMessage);
    Matcher user = USER.matcher(apiMessage == null ? "" : apiMessage);
    if (sa.find()) {
      subjectNamespace = sa.group(1);
      subjectName = sa.group(2);
    } else if (user.find()) {
      subjectKind = "User";
      subjectName = user.group(1);
      subjectNamespace = null;
    }
    s.append("apiVersion: rbac.authorization.k8s.io/v1\n")
        .append("kind: Role\n")
        .append("metadata:\n  name: cluster-resolver\n  namespace: ").append(namespace).append('\n')
        .append("rules:\n- apiGroups: [\"\"]\n  resources: [\"pods\"]\n  verbs: [\"get\", \"list\"]\n")
        .append("---\n")
        .append("apiVersion: rbac.authorization.k8s.io/v1\n")
        .append("kind: RoleBinding\n")
        .append("metadata:\n  name: cluster-resolver\n  namespace: ").append(namespace).append('\n')
        .append("subjects:\n- kind: ").append(subjectKind).append("\n  name: ").append(subjectName).append('\n');
    if (subjectNamespace != null) {
      s.append("  namespace: ").append(subjectNamespace).append('\n');
    } else {
      s.append("  apiGroup: rbac.authorization.k8s.io\n");
    }
    s.append("roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: cluster-resolver\n");
    return s.toString();
  }
}

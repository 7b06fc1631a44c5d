package io.clusterresolver.testkit;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What the simulated Google APIs ({@link SimulatedGce}, {@link SimulatedTpu}) share besides the
 * {@link SimulatedApi}: one Compute Engine metadata server ({@code /computeMetadata/v1/}, with
 * {@code Metadata-Flavor: Google}, with the default service account's token at
 * {@code instance/service-accounts/default/token}) and one OAuth2 token endpoint ({@code POST /token}),
 * on the API's port.
 *
 * @param <S> the simulation
 * @param <R> the request type it records
 */
public abstract class SimulatedGoogleApi<S extends SimulatedGoogleApi<S, R>, R> extends SimulatedApi<S, R> {

  /**
   * The pseudo-operation of the metadata server: a fault {@linkplain Fault#onOperation on} it hits every
   * metadata request (an API fault for any operation never does).
   */
  public static final String METADATA = "metadata";

  /** The metadata server's token of the VM's default service account (issued like {@code POST /token}'s). */
  private static final String SERVICE_ACCOUNT_TOKEN =
      GoogleMetadataServer.PREFIX + "instance/service-accounts/default/token";

  final GoogleMetadataServer metadata = new GoogleMetadataServer(this::metadataValues);
  final GoogleTokenEndpoint tokens = new GoogleTokenEndpoint();

  SimulatedGoogleApi(String name, String listingOperation) {
    super(name, METADATA, listingOperation, 16, o -> o);
  }

  /** The metadata values by path after {@code /computeMetadata/v1/}, read at each request. */
  abstract Map<String, String> metadataValues();

  /** The metadata server's endpoint (the same server; its paths start with {@code /computeMetadata/v1/}). */
  public URI metadataEndpoint() {
    return endpoint();
  }

  /**
   * What a provider on both endpoints needs to reach this simulation, as its properties under
   * {@code clusterresolver.PROVIDER.}: {@code endpoint}, {@code metadata-endpoint} and
   * {@code credentials=none} (no token is sent).
   */
  Map<String, String> endpointProperties(String provider) {
    String prefix = "clusterresolver." + provider + ".";
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(prefix + "endpoint", endpoint().toString());
    properties.put(prefix + "metadata-endpoint", metadataEndpoint().toString());
    properties.put(prefix + "credentials", "none");
    return properties;
  }

  /** Sets one metadata value by path after {@code /computeMetadata/v1/} (like {@code instance/zone}); {@code null} removes it. */
  public S metadataValue(String path, String value) {
    metadata.set(path, value);
    return self();
  }

  /** The access tokens {@code POST /token} issued (secrets a test checks never appear in any output). */
  public Set<String> issuedTokens() {
    return tokens.issued();
  }

  @Override
  ResponseDefinition metadataAnswer(Call call) {
    if (call.path().equals(SERVICE_ACCOUNT_TOKEN) && "Google".equals(call.header("metadata-flavor"))
        && "GET".equals(call.method())) {
      return tokens.serviceAccountToken();
    }
    return metadata.answer(call);
  }

  /** The metadata server's own garbage says {@code Metadata-Flavor: Google}; a malformed body is a captive portal's. */
  @Override
  ResponseDefinition metadataGarbage(Fault fault) {
    return fault.kind() == Fault.Kind.METADATA_GARBAGE ? GoogleMetadataServer.garbage() : super.metadataGarbage(fault);
  }
}

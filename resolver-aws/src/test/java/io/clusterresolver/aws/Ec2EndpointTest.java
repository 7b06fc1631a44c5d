package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.URI;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.Ec2ClientBuilder;

/**
 * Without an endpoint override the calls go where the SDK's {@code Ec2Client} sends them in the same region (its
 * endpoint rules are the oracle): the client's request is caught before it is sent.
 */
class Ec2EndpointTest {

  /** Stops a request before it leaves, keeping where it was going. */
  private static final class Caught extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  @ParameterizedTest
  @ValueSource(strings = {"us-east-1", "eu-central-2", "ap-southeast-5", "cn-north-1", "us-gov-west-1", "ca-west-1"})
  void theRegionalEndpointIsTheSdkClientsOne(String region) {
    assertThat(Ec2Calls.regionalEndpoint(region)).isEqualTo(sentBy(Ec2Client.builder(), region)); // "/" added when sent
  }

  /** Where an {@code Ec2Client} from {@code builder} sends {@code DescribeInstances} in {@code region}. */
  static URI sentBy(Ec2ClientBuilder builder, String region) {
    AtomicReference<URI> sent = new AtomicReference<>();
    try (Ec2Client sdk = builder.region(Region.of(region))
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(o -> o.addExecutionInterceptor(new ExecutionInterceptor() {
          @Override
          public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            sent.set(context.httpRequest().getUri());
            throw new Caught();
          }
        })).build()) {
      assertThat(catchThrowable(() -> sdk.describeInstances(r -> r.maxResults(5)))).isInstanceOf(Caught.class);
    }
    return sent.get();
  }
}

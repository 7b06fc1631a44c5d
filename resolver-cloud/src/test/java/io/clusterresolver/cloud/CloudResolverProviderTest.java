package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A provider class given its declarations and its factory: what it says, what it calls, what it loads. */
class CloudResolverProviderTest {

  private static final ConfigProperty<String> ZONES = ConfigProperty.string("zones").description("z").build();
  private static final CloudProperties.Declarations DECLARATIONS = CloudProperties.declarations(ZONES).build();

  /** The configuration the last {@link #build} was given. */
  private static final AtomicReference<ResolverConfig> GIVEN = new AtomicReference<>();

  /** A factory as a provider's is: a class apart, building the resolver from the configuration. */
  static ClusterResolver build(ResolverConfig config) {
    GIVEN.set(config);
    CloudResolverSetup setup = CloudResolverSetup.start(config, DECLARATIONS);
    setup.requireValid();
    return setup.unsharedResolver(() -> List.of(Member.builder("vm-1", "10.0.0.1").build()), SelfIdentity.none(), "");
  }

  /** A provider in the kit's words. */
  public static final class Given extends CloudResolverProvider {
    public Given() {
      super("given", DECLARATIONS, config -> build(config));
    }

    @Override
    protected boolean detect(ResolverContext context) {
      return false;
    }
  }

  /** A provider built the earlier way, that forgot {@code create}. */
  static final class Forgotten extends CloudResolverProvider {
    Forgotten() {
      super("forgotten", 70, DECLARATIONS.all());
    }

    @Override
    protected boolean detect(ResolverContext context) {
      return false;
    }
  }

  @Test
  void createIsTheFactoryGivenTheProvidersConfiguration() {
    Given provider = new Given();
    ResolverConfig config = ResolverConfig.resolve(provider.name(), provider.properties(),
        PropertySources.withEnvironment(Map.of("clusterresolver.given.port", "9000"), Map.of()));

    ClusterResolver resolver = provider.create(config);

    assertThat(GIVEN.get()).isSameAs(config);
    assertThat(resolver.clusterSpec()).isEqualTo(ClusterSpec.of(Map.of("worker", List.of("10.0.0.1:9000"))));
    assertThat(provider.properties()).isEqualTo(DECLARATIONS.all());
    assertThat(provider.priority()).isEqualTo(CloudResolverProvider.CLOUD_PRIORITY);
  }

  @Test
  void aProviderWithNeitherFactoryNorCreateSaysSo() {
    Forgotten provider = new Forgotten();
    ResolverConfig config = ResolverConfig.resolve(provider.name(), provider.properties(),
        PropertySources.withEnvironment(Map.of(), Map.of()));
    assertThat(provider.priority()).isEqualTo(70);
    assertThatThrownBy(() -> provider.create(config))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining(Forgotten.class.getName())
        .hasMessageContaining("create(ResolverConfig)");
  }

  // What loading a provider loads: its factory is the class that names the SDK.

  /** A cloud SDK: a client class whose use the verifier checks against its superclass. */
  public abstract static class SdkApi {
    abstract ClusterResolver resolver();
  }

  public static final class SdkClient extends SdkApi {
    @Override
    ClusterResolver resolver() {
      return ClusterResolvers.create("local", Map.of());
    }
  }

  /** A factory naming the SDK. */
  public static final class SdkFactory {
    static ClusterResolver create(ResolverConfig config) {
      SdkApi api = new SdkClient(); // verifying this method loads SdkClient to check it is an SdkApi
      return api.resolver();
    }
  }

  /** The factory as a lambda, as the kit's providers give it. */
  public static final class LambdaProvider extends CloudResolverProvider {
    public LambdaProvider() {
      super("lambda", DECLARATIONS, config -> SdkFactory.create(config));
    }

    @Override
    protected boolean detect(ResolverContext context) {
      return false;
    }
  }

  /** The factory as a method reference. */
  public static final class ReferenceProvider extends CloudResolverProvider {
    public ReferenceProvider() {
      super("reference", DECLARATIONS, SdkFactory::create);
    }

    @Override
    protected boolean detect(ResolverContext context) {
      return false;
    }
  }

  /** The test's class path in a loader of its own, which says what it loaded. */
  private static final class Isolated extends URLClassLoader {
    Isolated() throws MalformedURLException {
      super(classPath(), ClassLoader.getPlatformClassLoader());
    }

    private static URL[] classPath() throws MalformedURLException {
      List<URL> urls = new ArrayList<>();
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        urls.add(Path.of(entry).toUri().toURL());
      }
      return urls.toArray(new URL[0]);
    }

    boolean loaded(Class<?> c) {
      return findLoadedClass(c.getName()) != null;
    }

    void construct(Class<?> provider) throws ReflectiveOperationException {
      loadClass(provider.getName()).getConstructor().newInstance();
    }
  }

  @Test
  void aFactoryGivenAsALambdaIsNotLoadedWithTheProviderNorIsItsSdk() throws Exception {
    try (Isolated loader = new Isolated()) {
      loader.construct(LambdaProvider.class);
      assertThat(loader.loaded(LambdaProvider.class)).isTrue();
      assertThat(loader.loaded(SdkFactory.class)).isFalse();
      assertThat(loader.loaded(SdkClient.class)).isFalse();
    }
  }

  /** Why the kit's providers give a lambda: a method reference is linked when the provider is constructed. */
  @Test
  void aFactoryGivenAsAMethodReferenceIsLoadedWithTheProvider() throws Exception {
    try (Isolated loader = new Isolated()) {
      loader.construct(ReferenceProvider.class);
      assertThat(loader.loaded(SdkFactory.class)).isTrue();
    }
  }
}

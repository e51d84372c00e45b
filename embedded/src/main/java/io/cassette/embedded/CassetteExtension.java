package io.cassette.embedded;

import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5: one embedded node per test class, started before the first test and stopped after
 * the last; test methods and lifecycle methods receive it as a {@link Cassette} parameter.
 *
 * <pre>{@code
 * @ExtendWith(CassetteExtension.class)
 * class RepositoryTest {
 *   @Test
 *   void saves(Cassette cassette) { ... cassette.cqlAddress() ... }
 * }
 *
 * // or with options, in a static field (JUnit runs class callbacks only for static ones):
 * @RegisterExtension
 * static final CassetteExtension NODE = new CassetteExtension(() -> Cassette.embedded().withRedis());
 * ... NODE.cassette().redisAddress() ...
 * }</pre>
 */
public final class CassetteExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(CassetteExtension.class);

  private final Supplier<Cassette.Builder> options;
  private Cassette node;

  /** Test defaults ({@link Cassette#embedded()}). */
  public CassetteExtension() {
    this(Cassette::embedded);
  }

  /** A node built from {@code options} for each test class. */
  public CassetteExtension(Supplier<Cassette.Builder> options) {
    this.options = options;
  }

  /** The running node (between beforeAll and afterAll). */
  public Cassette cassette() {
    if (node == null) {
      throw new IllegalStateException("the embedded node runs only while the test class runs");
    }
    return node;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    node = options.get().start();
    context.getStore(NAMESPACE).put(Cassette.class, node);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    Cassette started = context.getStore(NAMESPACE).remove(Cassette.class, Cassette.class);
    if (started != null) {
      started.close();
    }
    node = null;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Cassette.class;
  }

  /** The node of the nearest enclosing test class (nested classes see their outer class's). */
  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Cassette started = context.getStore(NAMESPACE).get(Cassette.class, Cassette.class);
    return started != null ? started : cassette();
  }
}

package io.cassette.cql.language.functions;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.language.schema.UserFunction;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jdt.core.compiler.CategorizedProblem;
import org.eclipse.jdt.internal.compiler.ClassFile;
import org.eclipse.jdt.internal.compiler.CompilationResult;
import org.eclipse.jdt.internal.compiler.Compiler;
import org.eclipse.jdt.internal.compiler.DefaultErrorHandlingPolicies;
import org.eclipse.jdt.internal.compiler.ICompilerRequestor;
import org.eclipse.jdt.internal.compiler.classfmt.ClassFileReader;
import org.eclipse.jdt.internal.compiler.classfmt.ClassFormatException;
import org.eclipse.jdt.internal.compiler.env.ICompilationUnit;
import org.eclipse.jdt.internal.compiler.env.INameEnvironment;
import org.eclipse.jdt.internal.compiler.env.NameEnvironmentAnswer;
import org.eclipse.jdt.internal.compiler.impl.CompilerOptions;
import org.eclipse.jdt.internal.compiler.problem.DefaultProblemFactory;

/**
 * Compiles a Java UDF body with the Eclipse compiler (ECJ: pure Java, runs on a JRE, the compiler
 * Cassandra uses too) into a class of its own loader, and returns a handle to call it.
 *
 * <p>The body becomes a static method whose parameters are the function's arguments (named as
 * declared, Java types of {@link UdfJavaTypes}), inside a class importing {@code java.nio.ByteBuffer}
 * and {@code java.util.*} as Cassandra's template does. Error lines are counted from the body's
 * first line ("Line 1: ..."), as Cassandra reports them.
 *
 * <p>Sandbox, as far as it is cheap: the compiler only finds the classes Cassandra's UDFs may use
 * (java.lang, java.math, java.text, java.util, ByteBuffer, InetAddress, ...), never threads,
 * processes, System, Runtime, reflection, class loading, I/O, java.util.concurrent, streams or
 * functional interfaces: using one fails to compile ("Thread cannot be resolved to a type").
 * At run time the class's loader sees only the JDK's platform classes, not Cassette's. A call is
 * bounded in time by {@link UserFunctions}, not here. Unlike Cassandra 5.0 (which compiles
 * {@code System.exit} and refuses it at run time through a security manager), System is refused
 * when the function is created.
 */
final class JavaUdfCompiler {
  private JavaUdfCompiler() {}

  private static final String PACKAGE = "cassette.udf";
  private static final AtomicLong CLASS_IDS = new AtomicLong();

  /** Class-file name prefixes a UDF may reference (Cassandra's allowed patterns, pared down). */
  private static final List<String> ALLOWED = List.of(
      "java/lang/", "java/math/", "java/text/", "java/util/", "java/time/format/",
      "java/time/temporal/ChronoUnit.class", "java/nio/Buffer.class", "java/nio/ByteBuffer.class",
      "java/net/InetAddress.class", "java/net/Inet4Address.class", "java/net/Inet6Address.class",
      "java/net/UnknownHostException.class", "java/io/IOException.class", "java/io/Serializable.class");

  /** Prefixes refused even under an allowed one (Cassandra's disallowed patterns, plus System). */
  private static final List<String> DISALLOWED = List.of(
      "java/lang/Compiler.class", "java/lang/InheritableThreadLocal.class", "java/lang/Package.class",
      "java/lang/Process", "java/lang/Runtime", "java/lang/Shutdown.class", "java/lang/System.class",
      "java/lang/Thread", "java/lang/ClassLoader.class", "java/lang/ModuleLayer", "java/lang/Module.class",
      "java/lang/StackWalker", "java/lang/SecurityManager.class",
      "java/lang/instrument/", "java/lang/management/", "java/lang/ref/",
      "java/lang/reflect/", "java/lang/module/", "java/util/ServiceLoader.class", "java/util/Timer",
      "java/util/concurrent/", "java/util/function/", "java/util/jar/", "java/util/logging/",
      "java/util/prefs/", "java/util/spi/", "java/util/stream/", "java/util/zip/");

  /** What the compiled code itself needs of java.lang.invoke (string concatenation, lambdas). */
  private static final List<String> INVOKE_ALLOWED = List.of(
      "java/lang/invoke/StringConcatFactory.class", "java/lang/invoke/LambdaMetafactory.class");

  static boolean allowed(String classFile) {
    if (INVOKE_ALLOWED.contains(classFile)) {
      return true;
    }
    if (classFile.startsWith("java/lang/invoke/")) {
      return false;
    }
    boolean ok = false;
    for (String a : ALLOWED) {
      ok |= classFile.startsWith(a);
    }
    for (String d : DISALLOWED) {
      ok &= !classFile.startsWith(d);
    }
    return ok;
  }

  /**
   * Compiles {@code f} and returns a handle {@code Object call(Object[] args)}; a body that does
   * not compile gets Cassandra's InvalidRequest "Java source compilation failed:\nLine N: ...".
   */
  static MethodHandle compile(UserFunction f) {
    String className = "F" + CLASS_IDS.incrementAndGet() + "_" + sanitize(f.name());
    StringBuilder src = new StringBuilder();
    src.append("package ").append(PACKAGE).append(";\n")
        .append("import java.nio.ByteBuffer;\n")
        .append("import java.util.*;\n")
        .append("public final class ").append(className).append(" {\n")
        .append("  public static Object call(Object[] a) {\n")
        .append("    return body(");
    List<CqlType> types = f.argumentTypes();
    for (int i = 0; i < types.size(); i++) {
      src.append(i == 0 ? "" : ", ").append('(').append(UdfJavaTypes.javaType(types.get(i), false))
          .append(") a[").append(i).append(']');
    }
    src.append(");\n  }\n")
        .append("  private static ").append(UdfJavaTypes.javaType(f.returnType(), false)).append(" body(");
    for (int i = 0; i < types.size(); i++) {
      src.append(i == 0 ? "" : ", ").append(UdfJavaTypes.javaType(types.get(i), !f.calledOnNullInput()))
          .append(' ').append(f.argumentNames().get(i));
    }
    src.append(") {\n");
    int bodyFirstLine = (int) src.chars().filter(c -> c == '\n').count() + 1;
    src.append(f.body()).append("\n  }\n}\n");

    Map<String, byte[]> classes = new HashMap<>();
    StringBuilder errors = new StringBuilder();
    ICompilerRequestor requestor = (CompilationResult result) -> {
      if (result.hasErrors()) {
        for (CategorizedProblem p : result.getErrors()) {
          errors.append("Line ").append(p.getSourceLineNumber() - bodyFirstLine + 1).append(": ")
              .append(p.getMessage()).append('\n');
        }
        return;
      }
      for (ClassFile cf : result.getClassFiles()) {
        classes.put(new String(cf.fileName()).replace('/', '.'), cf.getBytes());
      }
    };
    Compiler compiler = new Compiler(new SandboxEnvironment(PACKAGE + "." + className),
        DefaultErrorHandlingPolicies.proceedWithAllProblems(), new CompilerOptions(options()), requestor,
        new DefaultProblemFactory(Locale.ENGLISH));
    compiler.compile(new ICompilationUnit[] {new Unit(className, src.toString())});
    if (errors.length() > 0) {
      throw invalid("Java source compilation failed:\n" + errors);
    }
    try {
      Class<?> c = new UdfClassLoader(classes).loadClass(PACKAGE + "." + className);
      return MethodHandles.publicLookup().findStatic(c, "call", MethodType.methodType(Object.class, Object[].class));
    } catch (ReflectiveOperationException | LinkageError e) {
      throw invalid("Could not compile function '" + f.keyspace() + "." + f.name() + "' from Java source: " + e);
    }
  }

  private static String sanitize(String name) {
    StringBuilder sb = new StringBuilder();
    for (char c : name.toCharArray()) {
      sb.append(Character.isJavaIdentifierPart(c) ? c : '_');
    }
    return sb.toString();
  }

  private static Map<String, String> options() {
    Map<String, String> o = new HashMap<>();
    o.put(CompilerOptions.OPTION_Source, CompilerOptions.VERSION_11);
    o.put(CompilerOptions.OPTION_Compliance, CompilerOptions.VERSION_11);
    o.put(CompilerOptions.OPTION_TargetPlatform, CompilerOptions.VERSION_11);
    o.put(CompilerOptions.OPTION_LineNumberAttribute, CompilerOptions.GENERATE);
    o.put(CompilerOptions.OPTION_SourceFileAttribute, CompilerOptions.DO_NOT_GENERATE);
    o.put(CompilerOptions.OPTION_LocalVariableAttribute, CompilerOptions.DO_NOT_GENERATE);
    o.put(CompilerOptions.OPTION_ReportDeprecation, CompilerOptions.IGNORE);
    return o;
  }

  /** The one source file. */
  private record Unit(String className, String source) implements ICompilationUnit {
    public char[] getFileName() {
      return (className + ".java").toCharArray();
    }

    public char[] getContents() {
      return source.toCharArray();
    }

    public char[] getMainTypeName() {
      return className.toCharArray();
    }

    public char[][] getPackageName() {
      return new char[][] {"cassette".toCharArray(), "udf".toCharArray()};
    }

    public boolean ignoreOptionalProblems() {
      return false;
    }
  }

  /** The classes the compiler may see: allowed JDK classes only, read as class files. */
  private static final class SandboxEnvironment implements INameEnvironment {
    private final String self;

    SandboxEnvironment(String self) {
      this.self = self;
    }

    @Override
    public NameEnvironmentAnswer findType(char[][] compoundTypeName) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < compoundTypeName.length; i++) {
        sb.append(i == 0 ? "" : "/").append(compoundTypeName[i]);
      }
      return find(sb.toString());
    }

    @Override
    public NameEnvironmentAnswer findType(char[] typeName, char[][] packageName) {
      StringBuilder sb = new StringBuilder();
      for (char[] p : packageName) {
        sb.append(p).append('/');
      }
      return find(sb.append(typeName).toString());
    }

    private NameEnvironmentAnswer find(String path) {
      String file = path + ".class";
      if (!allowed(file)) {
        return null;
      }
      try (InputStream in = ClassLoader.getPlatformClassLoader().getResourceAsStream(file)) {
        if (in == null) {
          return null;
        }
        return new NameEnvironmentAnswer(new ClassFileReader(in.readAllBytes(), file.toCharArray()), null);
      } catch (IOException | ClassFormatException e) {
        return null;
      }
    }

    @Override
    public boolean isPackage(char[][] parentPackageName, char[] packageName) {
      // As Cassandra's: a name is a package when no class has it.
      StringBuilder sb = new StringBuilder();
      if (parentPackageName != null) {
        for (char[] p : parentPackageName) {
          sb.append(p).append('/');
        }
      }
      sb.append(packageName);
      String name = sb.toString();
      if (name.replace('/', '.').equals(self) || !Character.isLowerCase(packageName[0])) {
        return false;
      }
      try (InputStream in = ClassLoader.getPlatformClassLoader().getResourceAsStream(name + ".class")) {
        return in == null;
      } catch (IOException e) {
        return false;
      }
    }

    @Override
    public void cleanup() {}
  }

  /** Defines the UDF's classes; everything else comes from the JDK's platform loader, not Cassette's. */
  private static final class UdfClassLoader extends ClassLoader {
    private final Map<String, byte[]> classes;

    UdfClassLoader(Map<String, byte[]> classes) {
      super("cassette-udf", ClassLoader.getPlatformClassLoader());
      this.classes = classes;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      byte[] b = classes.get(name);
      if (b == null) {
        throw new ClassNotFoundException(name);
      }
      return defineClass(name, b, 0, b.length);
    }
  }
}

package io.cassette.cql.language.functions;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.VectorType;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.Values;
import java.util.List;
import java.util.Locale;

/**
 * Cassandra 5.0's vector similarity functions {@code similarity_cosine},
 * {@code similarity_dot_product} and {@code similarity_euclidean} over {@code vector<float, n>},
 * with its scores (jvector's VectorSimilarityFunction): cosine (1 + cos) / 2, dot product
 * (1 + dot) / 2, euclidean 1 / (1 + squared distance), all computed in float as there. ANN
 * ordering ranks by the same scores, highest first.
 */
public final class VectorFunctions {
  private VectorFunctions() {}

  /** True for the three similarity function names (any case). */
  public static boolean isSimilarity(String name) {
    return similarityOf(name) != null;
  }

  /** The index similarity name (COSINE, DOT_PRODUCT, EUCLIDEAN) of a function name, or null. */
  static String similarityOf(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "similarity_cosine" -> "COSINE";
      case "similarity_dot_product" -> "DOT_PRODUCT";
      case "similarity_euclidean" -> "EUCLIDEAN";
      default -> null;
    };
  }

  /**
   * The function for these argument types (null for an argument whose type a literal gives:
   * {@code literalTypes} then holds the vector type its element count implies).
   */
  static NativeFunction resolve(String name, List<CqlType> argTypes, List<CqlType> literalTypes) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (argTypes.size() != 2) {
      throw invalid("Invalid number of arguments in call to function system." + lower + ": 2 required but "
          + argTypes.size() + " provided");
    }
    CqlType a = argTypes.get(0) != null ? argTypes.get(0) : literalTypes == null ? null : literalTypes.get(0);
    CqlType b = argTypes.get(1) != null ? argTypes.get(1) : literalTypes == null ? null : literalTypes.get(1);
    VectorType type = argTypes.get(0) instanceof VectorType v ? v : argTypes.get(1) instanceof VectorType v ? v
        : a instanceof VectorType v ? v : b instanceof VectorType v ? v : null;
    if (type == null) {
      throw invalid("Function " + lower + " requires a float vector argument, but found argument "
          + (a == null ? "?" : Types.toCql(a)) + " of type " + (a == null ? "?" : Types.toCql(a)));
    }
    if (!Types.FLOAT.equals(type.element())) {
      throw invalid("Function " + lower + " requires a float vector argument, but found argument of type "
          + Types.toCql(type));
    }
    for (CqlType t : new CqlType[] {a, b}) {
      if (t instanceof VectorType v && v.dimension() != type.dimension()) {
        throw invalid("All arguments must have the same vector dimensions");
      }
    }
    String similarity = similarityOf(lower);
    return new NativeFunction(lower, List.of(type, type), Types.FLOAT, (args, ctx) -> {
      if (args.get(0) == null || args.get(1) == null) {
        return null;
      }
      return Values.ofFloat(score(similarity, floats(args.get(0)), floats(args.get(1))));
    });
  }

  /** A serialized vector&lt;float, n&gt; as floats. */
  public static float[] floats(byte[] v) {
    float[] out = new float[v.length / 4];
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(v);
    for (int i = 0; i < out.length; i++) {
      out[i] = b.getFloat();
    }
    return out;
  }

  /** The score of {@code similarity} (COSINE, DOT_PRODUCT, EUCLIDEAN), higher is closer. */
  public static float score(String similarity, float[] x, float[] y) {
    io.cassette.storage.index.VectorSimilarity f = switch (similarity) {
      case "DOT_PRODUCT" -> io.cassette.storage.index.VectorSimilarity.DOT_PRODUCT;
      case "EUCLIDEAN" -> io.cassette.storage.index.VectorSimilarity.EUCLIDEAN;
      default -> io.cassette.storage.index.VectorSimilarity.COSINE;
    };
    return f.score(x, y);
  }
}

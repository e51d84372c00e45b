package io.cassette.tools.stress;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * A cassandra-stress user profile (YAML), the subset this tool reads:
 * <pre>
 * keyspace: stresscql
 * keyspace_definition: |            # run when the keyspace does not exist
 *   CREATE KEYSPACE stresscql WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
 * table: blogposts
 * table_definition: |               # run when the table does not exist
 *   CREATE TABLE blogposts (domain text, published_date timeuuid, url text, body text,
 *     PRIMARY KEY (domain, published_date))
 * columnspec:                       # optional, per column
 *   - name: domain
 *     size: gaussian(5..100)        # text/blob length (default UNIFORM(4..8))
 *   - name: published_date
 *     cluster: uniform(1..100)      # rows per partition, multiplied over clustering columns
 * insert:
 *   batchtype: UNLOGGED             # LOGGED or UNLOGGED (default), for partitions of several rows
 * queries:
 *   singlepost:
 *     cql: select * from blogposts where domain = ? LIMIT 1
 *     fields: samerow
 * </pre>
 * Columnspec population, insert partitions/select and the queries' fields are accepted and
 * not used: every insert writes one whole partition, and a query binds each marker to the
 * named column's value in the first row of the seed's partition.
 *
 * @param columnSizes column name (lower case) to size distribution
 * @param clusters clustering column name (lower case) to rows-per-value distribution
 * @param queries query name to CQL text
 */
public record UserProfile(String file, String keyspace, String keyspaceDefinition, String table,
    String tableDefinition, Map<String, Distribution> columnSizes, Map<String, Distribution> clusters,
    String batchType, Map<String, String> queries) {

  /** Size of text and blob values without a columnspec size. */
  public static final String DEFAULT_SIZE = "UNIFORM(4..8)";

  /** Reads and checks the profile; throws {@link ArgumentException} naming the file and the problem. */
  public static UserProfile load(String file) {
    Object root;
    try (Reader in = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
    } catch (IOException e) {
      throw new ArgumentException("Cannot read profile " + file + ": " + e);
    } catch (YAMLException e) {
      throw new ArgumentException("Profile " + file + " is not valid YAML: " + e.getMessage());
    }
    if (!(root instanceof Map<?, ?> map)) {
      throw new ArgumentException("Profile " + file + ": expected a YAML mapping with keyspace, table, queries");
    }
    String keyspace = string(map, "keyspace", file, true);
    String table = string(map, "table", file, true);
    Map<String, Distribution> sizes = new LinkedHashMap<>();
    Map<String, Distribution> clusters = new LinkedHashMap<>();
    Object spec = map.get("columnspec");
    if (spec != null) {
      if (!(spec instanceof List<?> list)) {
        throw new ArgumentException("Profile " + file + ": columnspec must be a list of {name, size, population, cluster}");
      }
      for (Object o : list) {
        if (!(o instanceof Map<?, ?> c) || !(c.get("name") instanceof String name)) {
          throw new ArgumentException("Profile " + file + ": each columnspec entry needs a name");
        }
        String key = name.toLowerCase(Locale.ROOT);
        if (c.get("size") != null) {
          sizes.put(key, Distribution.parse(String.valueOf(c.get("size"))));
        }
        if (c.get("cluster") != null) {
          clusters.put(key, Distribution.parse(String.valueOf(c.get("cluster"))));
        }
      }
    }
    String batchType = "UNLOGGED";
    if (map.get("insert") instanceof Map<?, ?> insert && insert.get("batchtype") != null) {
      batchType = String.valueOf(insert.get("batchtype")).toUpperCase(Locale.ROOT);
      if (!batchType.equals("LOGGED") && !batchType.equals("UNLOGGED")) {
        throw new ArgumentException("Profile " + file + ": insert batchtype must be LOGGED or UNLOGGED, not " + batchType);
      }
    }
    Map<String, String> queries = new LinkedHashMap<>();
    Object q = map.get("queries");
    if (q instanceof Map<?, ?> qm) {
      for (Map.Entry<?, ?> e : qm.entrySet()) {
        Object cql = e.getValue() instanceof Map<?, ?> m ? m.get("cql") : e.getValue();
        if (!(cql instanceof String text) || text.isBlank()) {
          throw new ArgumentException("Profile " + file + ": query '" + e.getKey() + "' needs a cql: text");
        }
        queries.put(String.valueOf(e.getKey()), text.trim());
      }
    } else if (q != null) {
      throw new ArgumentException("Profile " + file + ": queries must map names to {cql: ..., fields: ...}");
    }
    return new UserProfile(file, keyspace, string(map, "keyspace_definition", file, false), table,
        string(map, "table_definition", file, false), sizes, clusters, batchType, queries);
  }

  private static String string(Map<?, ?> map, String key, String file, boolean required) {
    Object v = map.get(key);
    if (v == null) {
      if (required) {
        throw new ArgumentException("Profile " + file + ": missing '" + key + "'");
      }
      return null;
    }
    return String.valueOf(v).trim();
  }
}

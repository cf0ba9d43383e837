package org.openresearch.neo4jrunner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.neo4j.cli.AdminTool;
import org.neo4j.cli.ExecutionContext;
import org.neo4j.server.CommunityEntryPoint;

/**
 * Runs the real Neo4j Community server (the entry point that {@code bin/neo4j console} uses) from
 * Maven-resolved jars, on a persistent home directory, with Bolt, HTTP and the Neo4j Browser on loopback.
 *
 * <p>Usage: {@code Neo4jRunner --home DIR [--bolt-port 7687] [--http-port 7474] [--pagecache 128m] [--auth]}
 *
 * <p>Layout of DIR: {@code conf/neo4j.conf} (rewritten on every start), {@code conf/neo4j-extra.conf}
 * (optional, user lines appended verbatim, later keys win), {@code data/}, {@code logs/}, {@code plugins/}.
 *
 * <p>Authentication is off unless {@code --auth} is given. With {@code --auth} and the environment variable
 * {@code NEO4J_RUNNER_INITIAL_PASSWORD} set, the initial password of user {@code neo4j} is set before the
 * first start of a fresh home (Neo4j ignores it once the system database exists).
 */
public final class Neo4jRunner {
    static final String PASSWORD_ENV = "NEO4J_RUNNER_INITIAL_PASSWORD";

    private Neo4jRunner() {}

    public static void main(String[] args) throws Exception {
        Path home = null;
        int boltPort = 7687;
        int httpPort = 7474;
        String pagecache = "128m";
        boolean auth = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--home" -> home = Path.of(value(args, ++i, a));
                case "--bolt-port" -> boltPort = Integer.parseInt(value(args, ++i, a));
                case "--http-port" -> httpPort = Integer.parseInt(value(args, ++i, a));
                case "--pagecache" -> pagecache = value(args, ++i, a);
                case "--auth" -> auth = true;
                default -> fail("unknown argument: " + a);
            }
        }
        if (home == null) {
            fail("usage: Neo4jRunner --home DIR [--bolt-port N] [--http-port N] [--pagecache 128m] [--auth]");
        }
        home = home.toAbsolutePath().normalize();
        Path conf = home.resolve("conf");
        Path data = home.resolve("data");
        for (String d : List.of("conf", "data", "logs", "plugins", "import", "run")) {
            Files.createDirectories(home.resolve(d));
        }
        writeConfig(home, boltPort, httpPort, pagecache, auth);

        String password = System.getenv(PASSWORD_ENV);
        boolean fresh = !Files.exists(data.resolve("databases").resolve("system"));
        if (auth && password != null && !password.isEmpty() && fresh) {
            int rc = AdminTool.execute(new ExecutionContext(home, conf), "dbms", "set-initial-password", password);
            if (rc != 0) {
                fail("neo4j-runner: set-initial-password failed with exit code " + rc);
            }
        }
        System.out.println("neo4j-runner: home=" + home + " bolt=127.0.0.1:" + boltPort
                + " http=127.0.0.1:" + httpPort + " auth=" + auth);
        System.out.flush();
        CommunityEntryPoint.main(new String[] {
            "--home-dir=" + home, "--config-dir=" + conf, "--console-mode"
        });
    }

    private static void writeConfig(Path home, int boltPort, int httpPort, String pagecache, boolean auth)
            throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("# Written by neo4j-runner on every start; put overrides in neo4j-extra.conf.");
        lines.add("server.directories.data=" + home.resolve("data"));
        lines.add("server.directories.logs=" + home.resolve("logs"));
        lines.add("server.directories.plugins=" + home.resolve("plugins"));
        lines.add("server.directories.import=" + home.resolve("import"));
        lines.add("server.directories.run=" + home.resolve("run"));
        lines.add("server.default_listen_address=127.0.0.1");
        lines.add("server.default_advertised_address=127.0.0.1");
        lines.add("server.bolt.enabled=true");
        lines.add("server.bolt.listen_address=127.0.0.1:" + boltPort);
        lines.add("server.bolt.advertised_address=127.0.0.1:" + boltPort);
        lines.add("server.http.enabled=true");
        lines.add("server.http.listen_address=127.0.0.1:" + httpPort);
        lines.add("server.http.advertised_address=127.0.0.1:" + httpPort);
        lines.add("server.https.enabled=false");
        lines.add("dbms.security.auth_enabled=" + auth);
        lines.add("server.memory.pagecache.size=" + pagecache);
        lines.add("dbms.usage_report.enabled=false");
        lines.add("client.allow_telemetry=false");
        lines.add("server.logs.debug.enabled=true");
        lines.add("db.transaction.timeout=0");
        // Netty waits a 5 s quiet period per event loop group on shutdown; nothing needs it locally.
        lines.add("internal.dbms.bolt.netty_server_shutdown_quiet_period=0");
        lines.add("internal.dbms.bolt.netty_server_shutdown_timeout=5s");
        Path extra = home.resolve("conf").resolve("neo4j-extra.conf");
        if (Files.exists(extra)) {
            lines.add("# --- from neo4j-extra.conf ---");
            lines.addAll(Files.readAllLines(extra, StandardCharsets.UTF_8));
        }
        Path target = home.resolve("conf").resolve("neo4j.conf");
        Path tmp = home.resolve("conf").resolve("neo4j.conf.tmp");
        Files.write(tmp, lines, StandardCharsets.UTF_8);
        Files.move(tmp, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            fail("missing value for " + flag);
        }
        return args[i];
    }

    private static void fail(String message) {
        System.err.println(message);
        System.exit(2);
    }
}

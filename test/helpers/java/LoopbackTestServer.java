// Temporal's time-skipping test server (io.temporal:temporal-test-server), bound to 127.0.0.1 only: the stock
// io.temporal.testserver.TestServer main listens on every interface. Usage: <port> [--enable-time-skipping]
// [--initial-time=<ISO-8601 instant>] (the server's clock starts there instead of at the machine's time).
// With TEST_SERVER_LOCK_LOG=<path> in its environment it rewrites <path>.<port> every 2 s with the server's log of
// time-skipping locks taken and released, each with its caller: what holds the clock when a skip stalls.
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

public final class LoopbackTestServer {
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    boolean skipping = false;
    long initialTimeMillis = 0; // 0: the machine's clock
    for (int i = 1; i < args.length; i++) {
      if (args[i].equalsIgnoreCase("--enable-time-skipping")) skipping = true;
      else if (args[i].startsWith("--initial-time=")) initialTimeMillis = Instant.parse(args[i].substring(15)).toEpochMilli();
      else throw new IllegalArgumentException("unknown flag " + args[i]);
    }
    // Locked until a client unlocks it, as the SDKs' test environments expect (they pass the port only).
    TestServicesStarter services = new TestServicesStarter(!skipping, initialTimeMillis);
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port), InsecureServerCredentials.create());
    // The SDK clients ping every 30 s, idle or not; grpc-java's default (one per 5 min) answers that with GOAWAY
    // ("excess pings") after a minute or two, and a task handed to a poll on the closed connection is lost until its
    // timeout, holding the clock locked meanwhile. Temporal's own server allows a ping every 10 s, idle too.
    builder.permitKeepAliveTime(10, TimeUnit.SECONDS).permitKeepAliveWithoutCalls(true);
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    Server server = builder.build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.shutdownNow();
      services.close();
    }));
    String lockLog = System.getenv("TEST_SERVER_LOCK_LOG");
    if (lockLog != null) logLocks(services, Path.of(lockLog + "." + port));
    server.awaitTermination();
  }

  // The timer's diagnostics are not served over gRPC: read through reflection (a debugging aid only).
  private static void logLocks(TestServicesStarter services, Path file) throws ReflectiveOperationException {
    Field field = TestServicesStarter.class.getDeclaredField("selfAdvancingTimer");
    field.setAccessible(true);
    Object timer = field.get(services);
    Method diagnostics = timer.getClass().getMethod("getDiagnostics", StringBuilder.class);
    diagnostics.setAccessible(true);
    Thread writer = new Thread(() -> {
      for (;;) {
        try {
          StringBuilder out = new StringBuilder();
          diagnostics.invoke(timer, out);
          Files.writeString(file, out.toString());
          Thread.sleep(2000);
        } catch (InterruptedException e) {
          return;
        } catch (Exception e) {
          e.printStackTrace();
          return;
        }
      }
    });
    writer.setDaemon(true);
    writer.start();
  }
}

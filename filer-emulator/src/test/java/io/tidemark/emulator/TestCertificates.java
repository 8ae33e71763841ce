package io.tidemark.emulator;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A throwaway CA with a server and a client certificate, made with the JDK's keytool and written as the PEM
 * files gRPC reads. The private keys come out of the keystores as unencrypted PKCS#8.
 */
public final class TestCertificates {

    private static final String PASSWORD = "changeit";

    public final Path ca;
    public final Path serverCert;
    public final Path serverKey;
    public final Path clientCert;
    public final Path clientKey;

    private TestCertificates(Path dir) {
        ca = dir.resolve("ca.pem");
        serverCert = dir.resolve("server.pem");
        serverKey = dir.resolve("server.key");
        clientCert = dir.resolve("client.pem");
        clientKey = dir.resolve("client.key");
    }

    public static TestCertificates create(Path dir) throws Exception {
        TestCertificates c = new TestCertificates(dir);
        keytool(dir, "-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=tidemark test ca",
                "-ext", "bc:c", "-validity", "2", "-keystore", "ca.p12");
        keytool(dir, "-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem");
        c.issue(dir, "server", "CN=localhost", "san=dns:localhost,ip:127.0.0.1", c.serverCert, c.serverKey);
        c.issue(dir, "client", "CN=tidemark client", null, c.clientCert, c.clientKey);
        return c;
    }

    private void issue(Path dir, String name, String dn, String san, Path certOut, Path keyOut) throws Exception {
        keytool(dir, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", dn,
                "-validity", "2", "-keystore", name + ".p12");
        keytool(dir, "-certreq", "-alias", name, "-keystore", name + ".p12", "-file", name + ".csr");
        List<String> sign = new ArrayList<>(List.of("-gencert", "-rfc", "-alias", "ca", "-keystore", "ca.p12",
                "-infile", name + ".csr", "-outfile", name + ".signed.pem", "-validity", "2"));
        if (san != null) {
            sign.addAll(List.of("-ext", san));
        }
        keytool(dir, sign.toArray(String[]::new));
        Files.writeString(certOut, Files.readString(dir.resolve(name + ".signed.pem")) + Files.readString(ca));
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve(name + ".p12"))) {
            store.load(in, PASSWORD.toCharArray());
        }
        PrivateKey key = (PrivateKey) store.getKey(name, PASSWORD.toCharArray());
        Files.writeString(keyOut, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
    }

    private static void keytool(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD, "-noprompt"));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }
}

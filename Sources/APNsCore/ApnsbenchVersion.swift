/// apnsbench's release: the one version string `apnsbench --version` prints and every report's `generator`
/// records.
public enum ApnsbenchVersion {
    public static let text = "0.9.0"
}

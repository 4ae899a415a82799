import Foundation
import Testing

// What `-o` does with what already stands at the path (a device node, a FIFO, a symbolic link,
// a directory, nothing), signals sent to a real meshgeo while it writes, and a standard error
// that cannot be written.

@Suite struct SafeOutputCLITests {
    static let quad = """
        {"vertices": [{"from": [0, 0], "to": [0, 0, 0]}, {"from": [1, 0], "to": [1, 0, 0]},
                      {"from": [1, 1], "to": [1, 1, 0]}, {"from": [0, 1], "to": [0, 1, 0]}],
         "faces": [{"indices": [0, 1, 2, 3]}], "subdivisionSteps": 1}
        """

    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// A character device node with the numbers of /dev/null (1, 3) or /dev/full (1, 7), made in
    /// the workspace; nil where mknod is not permitted (tests run as root here and in CI).
    static func makeDevice(_ path: String, minor: UInt32) -> Bool {
        mknod(path, S_IFCHR | 0o666, deviceNumber(major: 1, minor: minor)) == 0
    }

    /// Linux's encoding of a device number (glibc's `makedev`, a macro Swift does not import):
    /// the low 8 bits of the minor, then 12 of the major, then the rest of the minor and major.
    static func deviceNumber(major: UInt32, minor: UInt32) -> dev_t {
        let major = UInt64(major), minor = UInt64(minor)
        return dev_t((major & 0xFFF) << 8 | (major & ~0xFFF) << 32 | (minor & 0xFF) | (minor & ~0xFF) << 12)
    }

    @Test func aCharacterDeviceIsWrittenThroughNeverReplaced() throws {
        let dir = try CLIWorkspace()
        try dir.write("quad.json", Self.quad)
        guard Self.makeDevice(dir.path("null"), minor: 3), Self.makeDevice(dir.path("full"), minor: 7) else {
            // Only where the kernel refuses device nodes (an unprivileged container).
            print("mknod is not permitted here: device-node cases not run")
            return
        }
        let discarded = try dir.run(["tessellate", "quad.json", "-o", "null"])
        #expect(discarded.status == 0, "\(discarded.err)")
        #expect(Self.fileType(dir.path("null")) == S_IFCHR)
        let full = try dir.run(["tessellate", "quad.json", "-o", "full"])
        #expect(full.status == 74)
        #expect(full.errLines.count == 1 && full.err.contains("full"))
        #expect(Self.fileType(dir.path("full")) == S_IFCHR)
        // No temporary file was left beside them.
        #expect(try dir.listing() == ["full", "null", "quad.json"])
    }

    @Test func aFIFOIsWrittenThrough() throws {
        let dir = try CLIWorkspace()
        try dir.write("quad.json", Self.quad)
        #expect(mkfifo(dir.path("pipe"), 0o644) == 0)
        let expected = try dir.run(["tessellate", "quad.json"])
        #expect(expected.status == 0)
        // A reader on the other end, in a thread of its own so that meshgeo's open can complete.
        let path = dir.path("pipe")
        let received = ResultBox<Data>()
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: path) {
                received.value = handle.readDataToEndOfFile()
                try? handle.close()
            }
            done.signal()
        }
        reader.start()
        let written = try dir.run(["tessellate", "quad.json", "-o", "pipe"])
        done.wait()
        #expect(written.status == 0, "\(written.err)")
        #expect(received.value == expected.stdout)
        #expect(Self.fileType(path) == S_IFIFO)
        #expect(try dir.listing() == ["pipe", "quad.json"])
    }

    @Test func aSymbolicLinkStaysAndItsTargetIsReplaced() throws {
        let dir = try CLIWorkspace()
        try dir.write("quad.json", Self.quad)
        try FileManager.default.createDirectory(atPath: dir.path("real"), withIntermediateDirectories: true)
        try dir.write("real/target.obj", "old")
        #expect(symlink("real/target.obj", dir.path("link.obj")) == 0)
        #expect(symlink("real/new.obj", dir.path("dangling.obj")) == 0)
        let expected = try dir.run(["tessellate", "quad.json"]).stdout

        #expect(try dir.run(["tessellate", "quad.json", "-o", "link.obj"]).status == 0)
        #expect(Self.fileType(dir.path("link.obj")) == S_IFLNK)
        #expect(try dir.read("real/target.obj") == expected)
        // A link to nothing yet: the file is made where it points.
        #expect(try dir.run(["tessellate", "quad.json", "-o", "dangling.obj"]).status == 0)
        #expect(Self.fileType(dir.path("dangling.obj")) == S_IFLNK)
        #expect(try dir.read("real/new.obj") == expected)
        // The temporary files went in the target's directory and are gone.
        #expect(try dir.listing() == ["dangling.obj", "link.obj", "quad.json", "real"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("real")).sorted() == ["new.obj", "target.obj"])
    }

    @Test func aDirectoryOrAnEmptyNameIsRefusedBeforeAnyWork() throws {
        let dir = try CLIWorkspace()
        try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: true)
        // The input does not exist: refusing the output first shows that nothing was read.
        for arguments in [
            ["tessellate", "missing.json", "-o", "out"], ["fit", "missing.json", "-o", "out"],
            ["identity", "--rows", "2", "--columns", "2", "-o", "out"], ["render", "missing.json", "-o", "out", "--format", "svg"],
        ] {
            let result = try dir.run(arguments)
            #expect(result.status == 73, "\(arguments)")
            #expect(result.err == "meshgeo: error: out: is a directory; name a file to write\n", "\(arguments)")
        }
        let empty = try dir.run(["tessellate", "missing.json", "-o", ""])
        #expect(empty.status == 64)
        #expect(empty.errLines.count == 1 && empty.err.contains("-o needs a file name"))
        let noDirectory = try dir.run(["tessellate", "missing.json", "-o", "nowhere/x.obj"])
        #expect(noDirectory.status == 73)
        #expect(noDirectory.err.contains("does not exist"))
        #expect(try dir.listing() == ["out"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")).isEmpty)
    }

    @Test func anExistingFileIsReplacedKeepingItsMode() throws {
        let dir = try CLIWorkspace()
        try dir.write("quad.json", Self.quad)
        try dir.write("out.obj", "old")
        #expect(chmod(dir.path("out.obj"), 0o640) == 0)
        #expect(try dir.run(["tessellate", "quad.json", "-o", "out.obj"]).status == 0)
        var info = stat()
        #expect(stat(dir.path("out.obj"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o640)
        #expect(try dir.read("out.obj") == (try dir.run(["tessellate", "quad.json"])).stdout)
    }

    // MARK: Signals

    /// Starts meshgeo writing a large OBJ to out.obj, waits for its temporary file, sends
    /// `signal`, and checks that the process died of it and left nothing behind.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGPIPE])
    func aSignalRemovesTheTemporaryFile(signal: Int32) throws {
        let binary = try #require(MeshGeoCLI.binary)
        let dir = try CLIWorkspace()
        #expect(try dir.run(["identity", "--rows", "48", "--columns", "48", "-o", "big.json"]).status == 0)
        // 48² faces at steps 4: 1.2 million triangles, an OBJ of about 130 MB, written for seconds.
        let pid = try Self.spawn(binary.path, ["tessellate", dir.path("big.json"), "--steps", "4", "-o", dir.path("out.obj")])
        let deadline = Date().addingTimeInterval(300)
        var sawTemporary = false
        var status: Int32 = 0
        var ended = false
        while Date() < deadline {
            if try dir.listing().contains(where: { $0.hasPrefix(".out.obj.") }) {
                sawTemporary = true
                break
            }
            if waitpid(pid, &status, WNOHANG) == pid {
                ended = true
                break
            }
            usleep(5_000)
        }
        if !ended {
            kill(pid, signal)
            _ = waitpid(pid, &status, 0)
        }
        try #require(sawTemporary, "the temporary file never appeared (the run ended first)")
        // Ended by the signal itself (WIFSIGNALED, WTERMSIG): a shell reports 128 + signal.
        #expect(status & 0x7F == signal, "wait status \(status)")
        #expect(try dir.listing() == ["big.json"])
    }

    /// Starts a process as a shell would: every signal at its default action and none blocked
    /// (the test runner's threads may block some, and a child inherits the spawning thread's mask).
    static func spawn(_ path: String, _ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        try #require(result == 0, "posix_spawn failed: \(result)")
        return pid
    }

    // MARK: Standard error

    /// Runs meshgeo with standard error on /dev/full, where every write fails (ENOSPC).
    static func runWithFullStandardError(_ arguments: [String], in dir: CLIWorkspace) throws -> Process {
        let process = Process()
        process.executableURL = try #require(MeshGeoCLI.binary)
        process.arguments = arguments
        process.currentDirectoryURL = dir.url
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        try process.run()
        process.waitUntilExit()
        return process
    }

    @Test func anUnwritableStandardErrorKeepsTheExitCode() throws {
        let dir = try CLIWorkspace()
        try dir.write("empty.json", "")
        try dir.write("quad.json", Self.quad)
        let failing = try Self.runWithFullStandardError(["validate", "empty.json"], in: dir)
        #expect(failing.terminationReason == .exit)
        #expect(failing.terminationStatus == 65)
        let missing = try Self.runWithFullStandardError(["info", "none.json"], in: dir)
        #expect(missing.terminationReason == .exit && missing.terminationStatus == 66)
        let fine = try Self.runWithFullStandardError(["validate", "quad.json"], in: dir)
        #expect(fine.terminationReason == .exit && fine.terminationStatus == 0)
    }
}

/// A value handed from a helper thread to the test.
final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// The journal's tables, as a list of migrations: the database's `PRAGMA user_version` is how many
/// of them it has had, and opening it runs the rest in one transaction. A migration is only ever
/// appended, never edited, and only adds (tables, columns, indexes), so an older Layerwatch still
/// reads a journal a newer one wrote.
enum JournalSchema {
    static let migrations: [String] = [
        // 1: prints and the events during them. A print's `key` is the printer's own job id where
        // it has one, else printer + job + start: a print seen again is the same row. Times are
        // seconds since 1970 (UTC).
        """
        CREATE TABLE prints (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            printer_id TEXT NOT NULL,
            printer_name TEXT NOT NULL,
            camera TEXT,
            job TEXT,
            printer_job_id TEXT,
            started REAL NOT NULL,
            ended REAL,
            result TEXT NOT NULL CHECK (result IN ('underway', 'finished', 'failed', 'cancelled')),
            error TEXT,
            layer INTEGER,
            total_layers INTEGER,
            filament_mm REAL,
            from_printer_history INTEGER NOT NULL DEFAULT 0,
            first_layer_picture TEXT,
            final_picture TEXT
        );
        CREATE TABLE print_events (
            id INTEGER PRIMARY KEY,
            print_id INTEGER NOT NULL REFERENCES prints (id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('pause', 'resume', 'alert')),
            words TEXT,
            at REAL NOT NULL
        );
        CREATE INDEX print_events_by_print ON print_events (print_id, at);
        """,
        // 2: the videos made of a print (its timelapse, recordings), and indexes for the History
        // page's pages: newest first, of all printers, of one printer, of one result.
        """
        CREATE TABLE print_videos (
            id INTEGER PRIMARY KEY,
            print_id INTEGER NOT NULL REFERENCES prints (id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('timelapse', 'recording')),
            path TEXT NOT NULL,
            UNIQUE (print_id, path)
        );
        CREATE INDEX prints_newest ON prints (started DESC, key DESC);
        CREATE INDEX prints_of_printer ON prints (printer_id, started DESC, key DESC);
        CREATE INDEX prints_of_result ON prints (result, started DESC, key DESC);
        """,
        // 3: a print Layerwatch started (it sent the file and asked the printer to print it), and
        // the name of the file it sent.
        """
        ALTER TABLE prints ADD COLUMN started_from_layerwatch INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE prints ADD COLUMN sent_file TEXT;
        """,
        // 4: the prints Layerwatch asked a printer to start and waits for, left by whichever process
        // sent the file (the window, `layerwatch print`) for the recorder of whichever process sees
        // the print begin: the printer's id, the file's name as sent, and until when it is waited for.
        """
        CREATE TABLE expected_prints (
            printer_id TEXT NOT NULL,
            file TEXT NOT NULL,
            until REAL NOT NULL
        );
        CREATE INDEX expected_prints_of_printer ON expected_prints (printer_id, until);
        """,
    ]

    /// Brings `database` to the newest version, in one write transaction (which is also the proof
    /// that no other process holds the file); a journal newer than this Layerwatch is left as it is.
    static func migrate(_ database: SQLiteDatabase, to version: Int = migrations.count) throws {
        try database.transaction {
            let current = try database.rows("PRAGMA user_version") { $0.integer(0) ?? 0 }.first ?? 0
            guard current < version else { return }
            for migration in migrations[current..<version] { try database.execute(migration) }
            try database.execute("PRAGMA user_version = \(version)")
        }
    }
}

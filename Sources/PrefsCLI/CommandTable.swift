import LegacyDefaults
import PreferencesMigration

/// One verb, declared once. `prefs help`, `prefs VERB --help`, the manual page, the shell
/// completions and the argument scanner all read this declaration, so no option is listed
/// twice and a verb cannot accept an option its help does not show.
struct CommandSpec: Sendable {
  /// What a positional argument is, for completion.
  enum Operand: Sendable { case file, domain, key, value, plan, word, shell, command }

  var name: String
  var summary: String
  /// The synopsis lines, after `prefs NAME`.
  var synopsis: [String]
  var discussion: String
  var options: [OptionSpec] = []
  /// The completion of each positional argument (the last one repeats).
  var operands: [Operand] = []
  /// The verb scans its own words (`write KEY -int 5`): the table gives its help and its
  /// options for completion, the verb reads `raw`.
  var scansItself = false
  var run: @Sendable (Invocation, Console) throws(CommandFailure) -> ExitCode

  /// `prefs VERB --help`.
  var help: String {
    var text = ""
    for (n, line) in synopsis.enumerated() {
      text += (n == 0 ? "usage: " : "       ") + "prefs \(name)" + (line.isEmpty ? "" : " " + line)
      text += "\n"
    }
    text += discussion
    if !text.hasSuffix("\n") { text += "\n" }
    if !options.isEmpty {
      let labels = options.map { option -> String in
        var label = option.spellings.joined(separator: ", ")
        if let value = option.value { label += " " + value }
        return label
      }
      let width = min(28, (labels.map(\.count).max() ?? 0) + 2)
      text += "Options:\n"
      for (label, option) in zip(labels, options) {
        let padded =
          label.count < width
          ? label.padded(to: width) : label + "  "
        var line = "  " + padded + option.help
        if !option.choices.isEmpty, !option.help.contains(option.choices.joined(separator: "|")) {
          line += " (" + option.choices.joined(separator: ", ") + ")"
        }
        text += line + "\n"
      }
    }
    return text + "\n"
  }

  /// The scanner for this verb's options (and `--help`).
  func scan(_ arguments: [String]) throws(CommandFailure) -> Arguments {
    var valued: [String] = []
    var flags = ["--help"]
    for option in options {
      if option.value == nil {
        flags += option.spellings
      } else {
        valued += option.spellings
      }
    }
    return try Arguments(arguments, valued: valued, flags: flags, aliases: aliases)
  }

  private var aliases: [String: String] {
    var map: [String: String] = [:]
    for option in options { if let alias = option.alias { map[alias] = option.name } }
    return map
  }
}

/// What a verb is given: its arguments scanned against its declaration, and as typed.
struct Invocation {
  var arguments: Arguments
  var raw: [String]
}

extension Prefs {
  /// Every verb of `prefs`, in the order help lists them.
  static let commands: [CommandSpec] = [
    CommandSpec(
      name: "migrate", summary: "move legacy files into the typed store, with a report",
      synopsis: [
        "--plan PLAN (--to OUT | --in-place) [options] LEGACY..."
      ],
      discussion: """
        Runs the plan over each legacy file (a path, a domain name, a folder of .plist files, or -
        for a list of paths on standard input). One file with --to OUT writes OUT; several write
        OUT/<name> each. The legacy file is never changed, unless --in-place, and then only after
        a backup copy is complete (--backup DIR, default beside the file), all under the domain's
        lock. Output is written atomically; running the same plan again changes nothing. Files
        run in parallel; a bad file does not stop the others.
        A legacy key no entry names beside an entry the file does not have, the two within a
        typo of each other (PREFS_SOUND_ENABLE for PREFS_SOUND_ENABLED), is reported as "did
        you mean"; when the plan would drop that key (unmapped: drop) the file is refused,
        unless the plan's "drop" lists the key. A file holding no keys has nothing to migrate
        with --to (missing); in place it becomes a store of the plan's schema version.
        A file whose lock another process holds for the whole --lock-timeout (default 10 s) is
        busy and the others go on. SIGINT or SIGTERM starts no new file, lets those in flight
        end, prints the report of what was done and exits 130 or 143.
        Run as root over folders users own, each user's files are read and written as that
        user, and no link a user could plant is followed (the README's "Security").
        Exit 65 when any input is malformed or refused, 66 when any is missing, 73 when any
        failed, 75 when any was busy.
        """,
      options: [
        Options.plan.spec, Options.migrateTo.spec, Options.inPlace.spec, Options.backup.spec,
        Options.dryRun.spec, Options.storeFormat.spec, Options.truncateDates.spec,
        Options.jobs.spec, Options.shard.spec, Options.lockTimeout.spec, Options.summary.spec,
        Options.json.spec,
      ],
      operands: [.file],
      run: { (i, c) throws(CommandFailure) in try Migrate.run(i.arguments, console: c) }),
    CommandSpec(
      name: "plan",
      summary:
        "propose a plan from the legacy files or the app's source, and prove it on the files",
      synopsis: [
        "infer [--dialect DIALECT] [--jobs N] [--source SRC]... LEGACY...",
        "scan [--dialect DIALECT] [--suite NAME] [--jobs N] PATH...",
        "check [--jobs N] PLAN LEGACY...",
        "swift [--name NAME] PLAN [LEGACY...]",
      ],
      discussion: """
        infer reads every legacy file (paths, domain names, folders, - for a list on standard
        input), gathers what each key holds across them (how many files, the stored kinds, the
        loose forms such as "YES" or " 12", the distinct values when few) and prints the plan
        that migrates them on standard output, the evidence as a table on standard error. A key
        holding "YES", 1 and true is a bool; " 12", 7 and 12.0 an integer; JSON in strings or
        data json; a few strings shared by many files an enum. A key whose files disagree is
        typed any and noted, never guessed. Enum values that differ only in case (light,
        Light) are kept apart and noted. Every entry maps the key to itself: renaming is your
        edit.
        scan reads the app's source instead (PATH: files and folders; .h .m .mm .c .swift,
        the property lists it registers, Settings.bundle panes, .xib/.storyboard/designable.nib
        bindings to values.KEY) and prints the plan its code implies: each key the code uses
        with user defaults (macros, constants, enum cases and wrappers followed), typed by the
        getters and setters it calls, with the default the running app saw (registered, else
        the fallback when absent, else the Settings bundle's), named after the property it is
        kept in. The evidence on standard error lists every place each key is used and where
        each default came from; keys built at run time are listed as patterns (Flag*Image),
        never put in the plan. --suite NAME scans that suite's keys instead.
        infer --source SRC (again for each folder) makes one plan from the code and the files:
        the code's types and defaults, the keys only the code has, the files' keys no code
        uses any more proposed for "drop" (each named on standard error), the files' values
        where the code does not say a type.
        check runs PLAN as a dry run over every file and prints its coverage: suspected typos
        ("did you mean"), legacy keys no entry names, keys the plan drops on purpose, entries
        no file has, values that would read as the default or be refused, each with a count
        and example files. Nothing is written.
        swift prints the plan as Swift source: an extension of Keys with a typed key per entry
        (an enum for each enum entry, a Codable struct for each json entry, its fields from
        the JSON the LEGACY files hold), and the same plan as MigrationPlan.NAME (default: the
        plan file's name).
        Exit 65 when a file is malformed or (check) any file would not migrate, 66 when one is
        missing (scan: when no source file could be read).
        """,
      options: [
        Options.inferDialect.spec, Options.source.spec, Options.suite.spec, Options.jobs.spec,
        Options.name.spec,
      ],
      operands: [.word, .file],
      run: { (i, c) throws(CommandFailure) in try PlanCommand.run(i.arguments, console: c) }),
    CommandSpec(
      name: "export", summary: "the plan backwards, for a rollback",
      synopsis: ["--plan PLAN STORE --to LEGACY_OUT [--format FORMAT] [--truncate-dates]"],
      discussion: """
        The plan backwards: each typed key back to its legacy key, in the type the legacy code
        wrote (setBool: a boolean, setInteger: an integer, an enum its raw string, JSON values as
        JSON bytes), so a release can be rolled back. Written atomically; binary by default.
        """,
      options: [
        Options.plan.spec, Options.exportTo.spec, Options.legacyFormat.spec,
        Options.truncateDates.spec,
      ],
      operands: [.file],
      run: { (i, c) throws(CommandFailure) in try Export.run(i.arguments, console: c) }),
    CommandSpec(
      name: "read", summary: "print a property list, one key, or what a getter read",
      synopsis: [
        "FILE|DOMAIN [KEY] [--as TYPE] [--dialect DIALECT] [--json | --typed]",
        "FILE|DOMAIN --key-path KEYPATH [--json | --typed]",
      ],
      discussion: """
        Prints the whole property list, or the value of KEY, in the style of `defaults read`
        (strings bare; `prefs defaults read` prints exactly as macOS does); with --json as one JSON value (data as base64, dates as ISO 8601, nil as null).
        --typed prints typed JSON, which loses nothing and reads back with write -json: a real
        always with a fraction or exponent (3.0), {"$date": "2011-03-14T15:09:26Z"},
        {"$data": "BASE64"}, {"$real": "nan"}, {"$uid": 7}, and {"$dict": {…}} around a
        dictionary whose only key is one of those tags.
        --key-path reads the value at a key path into nested values: keys and array indices
        separated by dots, \\. a dot inside a key (as plutil's: window.frame.0).
        --as TYPE prints what the dialect's getter returned for each value (a string that would
        read as another bare is quoted). Reading never changes the file. Exit 1 when the domain
        or KEY does not exist.
        """,
      options: [
        Options.getter.spec, Options.dialect.spec, Options.json.spec, Options.typed.spec,
        Options.keyPath.spec,
      ],
      operands: [.domain, .key],
      run: { (i, c) throws(CommandFailure) in try Read.run(i.arguments, console: c) }),
    CommandSpec(
      name: "write", summary: "set one key and synchronize",
      synopsis: [
        "FILE|DOMAIN KEY [-bool|-int|-float|-string|-date|-data|-json] VALUE [--truncate-dates]",
        "FILE|DOMAIN KEY -array VALUE...",
        "FILE|DOMAIN KEY -dict KEY VALUE...",
        "FILE|DOMAIN KEY -array-add|-array-union VALUE... · -dict-add KEY VALUE...",
        "[--key-path] [--dry-run] [--json | --typed] FILE|DOMAIN KEY ...",
      ],
      discussion: """
        Sets one key and synchronizes (locked, merged, atomic), as `defaults write` does.
        Without a type, a VALUE starting with { ( < " is read as a property list, else a string.
        Each VALUE of -array and -dict is read the same way, or given as a type and its word
        (-dict General -bool true; a -dict key may follow -string). -bool takes YES/NO/true/false/1/0; -date takes 2011-03-14T15:09:26Z or
        "2011-03-14 15:09:26 +0000"; -data takes hex digits; -json takes any value as typed JSON
        (read --typed prints it: '{"a": [1, 2.5], "when": {"$date": "2011-03-14T15:09:26Z"}}'),
        also as one element of -array or -dict. A date with a fraction of a second
        is refused by an XML or GNUstep text file unless --truncate-dates (first or last).
        -array-add appends the values to the array at KEY and -dict-add merges the entries into
        the dictionary there, as `defaults write` does; -array-union appends each value the
        array does not hold yet (compared exactly), so that adding again changes nothing. A KEY
        that holds nothing takes the value; one that holds another type is refused.
        Before FILE: --key-path takes KEY as a key path into nested values (as read
        --key-path; each dictionary missing on the way is made, an array index is replaced or,
        at the array's count, appended); --dry-run changes nothing; --json prints the changes
        made (or, with --dry-run, that would be) as diff --json does, nothing when none (an
        equal value is not written); --typed prints them with typed JSON values.
        """,
      options: [
        Options.truncateDates.spec, Options.keyPath.spec, Options.dryRunChange.spec,
        Options.json.spec, Options.typed.spec,
      ], operands: [.domain, .key, .value], scansItself: true,
      run: { (i, c) throws(CommandFailure) in try Write.run(i.raw, console: c) }),
    CommandSpec(
      name: "delete", summary: "remove a key (or the whole domain) and synchronize",
      synopsis: ["FILE|DOMAIN [KEY] [--key-path] [--dry-run] [--json | --typed]"],
      discussion: """
        Removes KEY and synchronizes; without KEY removes the whole domain (its file).
        --key-path removes the value at a key path (as read --key-path); --dry-run removes
        nothing; --json prints the changes (or, with --dry-run, those it would make) as diff
        --json does, --typed with typed JSON values.
        Exit 1 when the key or the domain does not exist.
        """,
      options: [
        Options.keyPath.spec, Options.dryRunChange.spec, Options.json.spec, Options.typed.spec,
      ],
      operands: [.domain, .key],
      run: { (i, c) throws(CommandFailure) in try Delete.run(i.arguments, console: c) }),
    CommandSpec(
      name: "rename", summary: "rename a key and synchronize",
      synopsis: ["FILE|DOMAIN OLD_KEY NEW_KEY"],
      discussion: """
        Renames a key (its value unchanged) and synchronizes, under the domain's lock. Exit 1 when
        OLD_KEY does not exist, 73 when NEW_KEY exists already.
        """,
      operands: [.domain, .key, .word],
      run: { (i, c) throws(CommandFailure) in try Rename.run(i.arguments, console: c) }),
    CommandSpec(
      name: "read-type", summary: "print the type of a key's value",
      synopsis: ["FILE|DOMAIN KEY"],
      discussion: """
        Prints the type of KEY's value, as `defaults read-type` does ("Type is boolean").
        """,
      operands: [.domain, .key],
      run: { (i, c) throws(CommandFailure) in try ReadType.run(i.arguments, console: c) }),
    CommandSpec(
      name: "import", summary: "merge a property list into a domain",
      synopsis: ["FILE|DOMAIN PLIST"],
      discussion: """
        Merges the dictionary in PLIST (any format; - for standard input) into the domain, key by
        key, with the same lock and atomic write as every other change.
        """,
      operands: [.domain, .file],
      run: { (i, c) throws(CommandFailure) in try Import.run(i.arguments, console: c) }),
    CommandSpec(
      name: "domains", summary: "list the domains of the preferences folder",
      synopsis: ["[--json]"],
      discussion: """
        Lists the domains in the platform's preferences folder ($XDG_CONFIG_HOME, else ~/.config,
        on Linux; ~/Library/Preferences on macOS): the names of its .plist files.
        """,
      options: [Options.json.spec],
      run: { (i, c) throws(CommandFailure) in try Domains.run(i.arguments, console: c) }),
    CommandSpec(
      name: "find", summary: "search every domain for a word",
      synopsis: ["WORD [--json]"],
      discussion: """
        Searches every domain of the preferences folder for keys and values containing WORD
        (ignoring case), and prints the matches per domain. A file that does not parse is named
        on standard error and skipped. Exit 1 when nothing matches.
        """,
      options: [Options.json.spec], operands: [.word],
      run: { (i, c) throws(CommandFailure) in try Find.run(i.arguments, console: c) }),
    CommandSpec(
      name: "diff", summary: "the defaults commands that turn one domain into another",
      synopsis: ["A B [--json | --typed]"],
      discussion: """
        Compares two domains or files (a domain and an export of it, two users' files, a file
        before and after) key by key, values exactly, and prints the `defaults` commands that
        turn A into B: `defaults write A key -float 2.5`, `defaults delete A key`; a container
        or data as a literal `defaults` reads back exactly, a date as -date; text holding a line
        break or another control character in $'…' quoting (bash, zsh, ksh). --json prints one
        object a line ({"domain", "key", "change": "set" or "removed", "old", "new", "command":
        the line that makes the change, "revert": the line that undoes it}); --typed with old
        and new in typed JSON (see read --typed).
        Exit 0 when they are the same, 1 when they differ, 66 when one does not exist.
        """,
      options: [Options.json.spec, Options.typed.spec], operands: [.domain, .domain],
      run: { (i, c) throws(CommandFailure) in try Diff.run(i.arguments, console: c) }),
    CommandSpec(
      name: "watch", summary: "print each change of domains as it happens",
      synopsis: ["DOMAIN|FILE... [--json] [--count N]", "--all [--json] [--count N]"],
      discussion: """
        Prints each change of the domains (or, with --all, of every domain of the preferences
        folder, new ones too) as it happens (woken by the file watcher), as the `defaults` command that makes it (as diff
        prints them), until interrupted, or until --count N changes were printed. --json
        prints one object a line. A domain named that does not exist is exit 1.
        """,
      options: [Options.all.spec, Options.json.spec, Options.count.spec], operands: [.domain],
      run: { (i, c) throws(CommandFailure) in try Watch.run(i.arguments, console: c) }),
    CommandSpec(
      name: "edit", summary: "edit a domain as text, applied key by key under its lock",
      synopsis: ["DOMAIN|FILE [--format xml|openstep]"],
      discussion: """
        Opens the domain as text (XML, or OpenStep text, GNUstep's typed text where a value
        needs it) in $VISUAL, else $EDITOR, else vi. When the editor exits the text is checked:
        an error says where it broke, and on a terminal you may edit again or abort; nothing is
        written until it parses. Then only the keys you changed are applied, as one locked
        update, so keys another process changed meanwhile are kept; a key you changed that
        another writer changed too keeps the other writer's value and is reported (exit 75).
        An editor that fails changes nothing (exit 1).
        """,
      options: [Options.editFormat.spec], operands: [.domain],
      run: { (i, c) throws(CommandFailure) in try Edit.run(i.arguments, console: c) }),
    CommandSpec(
      name: "lint", summary: "check that files parse (exit 65 if any does not)",
      synopsis: ["FILE|DOMAIN... [--json]"],
      discussion: """
        Parses each file (- is standard input). Exit 0 when all are well-formed, 65 when any is
        malformed (the reason is printed per file), 66 when any is missing or is not a regular
        file and none is malformed.
        """,
      options: [Options.json.spec], operands: [.domain],
      run: { (i, c) throws(CommandFailure) in try Lint.run(i.arguments, console: c) }),
    CommandSpec(
      name: "convert", summary: "rewrite in xml, binary, openstep, gnustep or json",
      synopsis: ["FILE|DOMAIN --to FORMAT [-o OUT] [--truncate-dates]"],
      discussion: """
        Rewrites FILE (- is standard input) in another format, without loss: a value the format cannot hold (a date in
        OpenStep text, data in JSON, a fractional-second date in XML unless --truncate-dates) is
        refused with exit 65 naming the value. Writes to OUT atomically (a temporary file renamed
        over it), or to standard output without -o (never binary to a terminal).
        """,
      options: [Options.convertTo.spec, Options.output.spec, Options.truncateDates.spec],
      operands: [.domain],
      run: { (i, c) throws(CommandFailure) in try Convert.run(i.arguments, console: c) }),
    CommandSpec(
      name: "completion", summary: "print a bash or zsh completion script",
      synopsis: ["bash|zsh"],
      discussion: """
        Prints a completion script: `prefs completion bash >
        /usr/local/share/bash-completion/completions/prefs` (make the folder first with
        `install -d`), or `prefs completion zsh > "${fpath[1]}/_prefs"`. Verbs, their options
        and the values of options complete; domain names complete from `prefs domains`.
        """,
      operands: [.shell],
      run: { (i, c) throws(CommandFailure) in try Completion.run(i.arguments, console: c) }),
    CommandSpec(
      name: "man", summary: "print the manual page (roff)", synopsis: [""],
      discussion: """
        Prints the manual page in roff: `install -d /usr/local/share/man/man1 && prefs man >
        /usr/local/share/man/man1/prefs.1`.
        """,
      run: { (i, c) throws(CommandFailure) in try Manual.run(i.arguments, console: c) }),
  ]
}

//! The protocol's input: one line, one typed `Command`, parsed with nom.
//!
//! The grammar is in `protocol-spec.md`. Parsing knows nothing of the variant: seat letters,
//! positions and moves are checked by the session against the variant's rules.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{satisfy, space1};
use nom::combinator::{all_consuming, eof, map, opt, peek, rest, value};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

/// Input echoed in an error: at most 60 characters. Control characters are escaped when the
/// line is written (`reply::escape_controls`).
pub fn shown(s: &str) -> String {
    let mut t: String = s.chars().take(60).collect();
    if s.chars().count() > 60 {
        t.push_str("...");
    }
    t
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    Startpos,
    /// A position string (`sfen ...` or `fen ...`; both words are accepted in every variant).
    Text(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub ponder: bool,
    pub infinite: bool,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub byoyomi: Option<u64>,
    pub movestogo: Option<u32>,
    /// `<seat>time` and `<seat>inc`, by seat letter.
    pub time: Vec<(char, u64)>,
    pub inc: Vec<(char, u64)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Usi,
    Uci,
    IsReady,
    NewGame,
    SetOption { name: String, value: Option<String> },
    Position { start: PositionStart, moves: Vec<String> },
    Go(GoParams),
    Perft(u32),
    Stop,
    PonderHit,
    GameOver(String),
    Display,
    LegalMoves,
    Status,
    Debug,
    Quit,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum GoParam {
    Ponder,
    Infinite,
    MoveTime(u64),
    Depth(u64),
    Nodes(u64),
    Mate(u64),
    Byoyomi(u64),
    MovesToGo(u64),
    Perft(u32),
    Time(char, u64),
    Inc(char, u64),
}

type Res<'a, T> = IResult<&'a str, T>;

/// A word that ends at white space or the end of the line.
fn keyword<'a>(k: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = nom::error::Error<&'a str>> {
    terminated(tag(k), peek(alt((space1, eof))))
}

fn token(i: &str) -> Res<'_, &str> {
    take_till1(|c: char| c.is_whitespace()).parse(i)
}

fn number_u64(i: &str) -> Res<'_, u64> {
    terminated(nom::character::complete::u64, peek(alt((space1, eof)))).parse(i)
}

fn number_u32(i: &str) -> Res<'_, u32> {
    terminated(nom::character::complete::u32, peek(alt((space1, eof)))).parse(i)
}

fn with_u64<'a>(
    k: &'static str,
    f: fn(u64) -> GoParam,
) -> impl Parser<&'a str, Output = GoParam, Error = nom::error::Error<&'a str>> {
    map(preceded((keyword(k), space1), number_u64), f)
}

fn with_u32<'a>(
    k: &'static str,
    f: fn(u32) -> GoParam,
) -> impl Parser<&'a str, Output = GoParam, Error = nom::error::Error<&'a str>> {
    map(preceded((keyword(k), space1), number_u32), f)
}

fn seat_clock(i: &str) -> Res<'_, GoParam> {
    let (i, seat) = satisfy(|c| c.is_ascii_lowercase()).parse(i)?;
    let (i, kind) = alt((keyword("time"), keyword("inc"))).parse(i)?;
    let (i, n) = preceded(space1, number_u64).parse(i)?;
    Ok((i, if kind == "time" { GoParam::Time(seat, n) } else { GoParam::Inc(seat, n) }))
}

fn go_param(i: &str) -> Res<'_, GoParam> {
    alt((
        value(GoParam::Ponder, keyword("ponder")),
        value(GoParam::Infinite, keyword("infinite")),
        with_u64("movetime", GoParam::MoveTime),
        with_u64("depth", GoParam::Depth),
        with_u64("nodes", GoParam::Nodes),
        with_u64("mate", GoParam::Mate),
        with_u64("byoyomi", GoParam::Byoyomi),
        with_u64("movestogo", GoParam::MovesToGo),
        with_u32("perft", GoParam::Perft),
        seat_clock,
    ))
    .parse(i)
}

fn parse_go(args: &str) -> Result<Command, String> {
    let mut params: Vec<GoParam> = Vec::new();
    let mut input = args;
    loop {
        let trimmed = input.trim_start();
        if trimmed.is_empty() {
            break;
        }
        match go_param(trimmed) {
            Ok((rest, p)) => {
                params.push(p);
                input = rest;
            }
            Err(_) => {
                let bad = trimmed.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
                return Err(format!("go: malformed parameter at '{}'", bad));
            }
        }
    }
    let mut g = GoParams::default();
    let mut perft = None;
    let mut seen: Vec<String> = Vec::new();
    for p in params {
        let name = match &p {
            GoParam::Time(c, _) => format!("{}time", c),
            GoParam::Inc(c, _) => format!("{}inc", c),
            other => format!("{:?}", other).split('(').next().unwrap_or("").to_lowercase(),
        };
        if seen.contains(&name) {
            return Err(format!("go: parameter '{}' given twice", name));
        }
        seen.push(name);
        match p {
            GoParam::Ponder => g.ponder = true,
            GoParam::Infinite => g.infinite = true,
            GoParam::MoveTime(n) => g.movetime = Some(n),
            GoParam::Depth(0) => return Err("go: depth must be at least 1".into()),
            // Every int fits in 64 bits (section 3); past what a search can reach, a depth, a
            // mate or a count of moves means the most there is.
            GoParam::Depth(n) => g.depth = Some(u32::try_from(n).unwrap_or(u32::MAX)),
            GoParam::Nodes(0) => return Err("go: nodes must be at least 1".into()),
            GoParam::Nodes(n) => g.nodes = Some(n),
            GoParam::Mate(0) => return Err("go: mate must be at least 1".into()),
            GoParam::Mate(n) => g.mate = Some(u32::try_from(n).unwrap_or(u32::MAX)),
            GoParam::Byoyomi(n) => g.byoyomi = Some(n),
            GoParam::MovesToGo(0) => return Err("go: movestogo must be at least 1".into()),
            GoParam::MovesToGo(n) => g.movestogo = Some(u32::try_from(n).unwrap_or(u32::MAX)),
            GoParam::Perft(n) => perft = Some(n),
            GoParam::Time(c, n) => g.time.push((c, n)),
            GoParam::Inc(c, n) => g.inc.push((c, n)),
        }
    }
    if let Some(n) = perft {
        if seen.len() > 1 {
            return Err("go perft takes no other parameter".into());
        }
        if n == 0 || n > 64 {
            return Err("go perft: depth must be from 1 to 64".into());
        }
        return Ok(Command::Perft(n));
    }
    Ok(Command::Go(g))
}

fn parse_position(args: &str) -> Result<Command, String> {
    // position (startpos | (sfen|fen) <text>) [moves <move>...]
    let args = args.trim();
    let (before, moves) = match find_word(args, "moves") {
        Some(at) => (args[..at].trim_end(), Some(args[at + "moves".len()..].trim())),
        None => (args, None),
    };
    let start: Res<'_, PositionStart> = all_consuming(alt((
        value(PositionStart::Startpos, keyword("startpos")),
        map(preceded((alt((keyword("sfen"), keyword("fen"))), space1), rest), |t: &str| {
            PositionStart::Text(t.split_whitespace().collect::<Vec<_>>().join(" "))
        }),
    )))
    .parse(before);
    let start = match start {
        Ok((_, s)) => s,
        Err(_) => {
            return Err(format!("position: expected 'startpos', 'sfen <text>' or 'fen <text>', got '{}'", before));
        }
    };
    let moves = match moves {
        None => Vec::new(),
        Some(m) => {
            let r: Res<'_, Vec<&str>> = all_consuming(many0(terminated(token, opt(space1)))).parse(m);
            r.map(|(_, v)| v.into_iter().map(String::from).collect())
                .map_err(|_| "position: bad move list".to_string())?
        }
    };
    Ok(Command::Position { start, moves })
}

/// The byte offset of `word` as a whole white-space separated word.
fn find_word(s: &str, word: &str) -> Option<usize> {
    let mut offset = 0;
    for part in s.split_inclusive(char::is_whitespace) {
        if part.trim_end() == word {
            return Some(offset);
        }
        offset += part.len();
    }
    None
}

fn parse_setoption(args: &str) -> Result<Command, String> {
    // setoption name <id> [value <x>]; names and values may hold spaces.
    let args = args.trim();
    let r: Res<'_, &str> = preceded((keyword("name"), space1), rest).parse(args);
    let body = match r {
        Ok((_, b)) => b,
        Err(_) => return Err("setoption: expected 'name <id> [value <x>]'".into()),
    };
    let (name, value) = match find_word(body, "value") {
        Some(at) => (body[..at].trim(), Some(body[at + "value".len()..].trim().to_string())),
        None => (body.trim(), None),
    };
    if name.is_empty() {
        return Err("setoption: the option name is empty".into());
    }
    Ok(Command::SetOption { name: name.to_string(), value })
}

fn no_args(cmd: &str, args: &str, c: Command) -> Result<Command, String> {
    if args.trim().is_empty() { Ok(c) } else { Err(format!("{}: takes no arguments, got '{}'", cmd, args.trim())) }
}

/// Parses one input line. Blank lines give `Ok(None)`.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let kw: Res<'_, &str> = token(line);
    let Ok((args, word)) = kw else { return Ok(None) };
    let cmd = match word {
        "usi" => no_args(word, args, Command::Usi),
        "uci" => no_args(word, args, Command::Uci),
        "isready" => no_args(word, args, Command::IsReady),
        "usinewgame" | "ucinewgame" => no_args(word, args, Command::NewGame),
        "setoption" => parse_setoption(args),
        "position" => parse_position(args),
        "go" => parse_go(args),
        "stop" => no_args(word, args, Command::Stop),
        "ponderhit" => no_args(word, args, Command::PonderHit),
        "gameover" => {
            let r: Res<'_, &str> = all_consuming(alt((tag("win"), tag("lose"), tag("draw")))).parse(args.trim());
            r.map(|(_, w)| Command::GameOver(w.to_string()))
                .map_err(|_| format!("gameover: expected win, lose or draw, got '{}'", args.trim()))
        }
        // UCI's `debug on|off`: Cute Chess sends it; this engine has nothing to switch.
        "debug" => match args.trim() {
            "on" | "off" => Ok(Command::Debug),
            other => Err(format!("debug: expected on or off, got '{}'", other)),
        },
        "d" => no_args(word, args, Command::Display),
        "legalmoves" => no_args(word, args, Command::LegalMoves),
        "status" => no_args(word, args, Command::Status),
        "quit" => no_args(word, args, Command::Quit),
        _ => {
            let shown: String = word.chars().take(40).collect();
            Err(format!("unknown command '{}'", shown))
        }
    }?;
    Ok(Some(cmd))
}

/// Parses a non-negative integer option value.
pub fn parse_int(s: &str) -> Result<u64, String> {
    let r: Res<'_, u64> = all_consuming(nom::character::complete::u64).parse(s);
    r.map(|(_, n)| n).map_err(|_| format!("'{}' is not a non-negative integer", s))
}

/// Parses a check option value.
pub fn parse_bool(s: &str) -> Result<bool, String> {
    let r: Res<'_, bool> = all_consuming(alt((value(true, tag("true")), value(false, tag("false"))))).parse(s);
    r.map(|(_, b)| b).map_err(|_| format!("'{}' is not 'true' or 'false'", s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_clock() {
        let c = parse("go btime 1000 wtime 2000 binc 10 winc 20 byoyomi 500").unwrap().unwrap();
        let Command::Go(g) = c else { panic!() };
        assert_eq!(g.time, vec![('b', 1000), ('w', 2000)]);
        assert_eq!(g.inc, vec![('b', 10), ('w', 20)]);
        assert_eq!(g.byoyomi, Some(500));
    }

    #[test]
    fn go_errors() {
        assert!(parse("go depth").is_err());
        assert!(parse("go depth x").is_err());
        assert!(parse("go depth 5 depth 6").is_err());
        assert!(parse("go depthx 5").is_err());
        assert!(parse("go movetime -5").is_err());
        assert!(parse("go btime 99999999999999999999999").is_err());
        assert!(parse("go depth 18446744073709551616").is_err());
        let Some(Command::Go(g)) =
            parse("go depth 18446744073709551615 mate 18446744073709551615 movestogo 18446744073709551615").unwrap()
        else {
            panic!()
        };
        assert_eq!((g.depth, g.mate, g.movestogo), (Some(u32::MAX), Some(u32::MAX), Some(u32::MAX)));
        assert!(parse("go depth +5").is_err());
        assert_eq!(parse("go perft 3").unwrap(), Some(Command::Perft(3)));
        assert!(parse("go perft 3 depth 2").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves 6e6d 1b1c").unwrap(),
            Some(Command::Position { start: PositionStart::Startpos, moves: vec!["6e6d".into(), "1b1c".into()] })
        );
        assert_eq!(
            parse("position sfen  rbnsgk/5p/6/6/P5/KGSNBR b - 1").unwrap(),
            Some(Command::Position {
                start: PositionStart::Text("rbnsgk/5p/6/6/P5/KGSNBR b - 1".into()),
                moves: vec![]
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position startpos 6e6d").is_err());
    }

    #[test]
    fn setoption_forms() {
        assert_eq!(
            parse("setoption name USI_Hash value 32").unwrap(),
            Some(Command::SetOption { name: "USI_Hash".into(), value: Some("32".into()) })
        );
        assert_eq!(
            parse("setoption name Move Overhead value 10").unwrap(),
            Some(Command::SetOption { name: "Move Overhead".into(), value: Some("10".into()) })
        );
        assert!(parse("setoption USI_Hash 32").is_err());
    }
}

//! The training-data file format: 32-byte blocks, read and written as a stream.
//!
//! A file is a sequence of 32-byte blocks. A block whose last byte has its top bit set is a
//! header (magic `CHARIOTD`, version, block size); every other block is one position. A file
//! starts with a header, and files concatenate: `cat a b > c` gives a valid file (a header
//! in the middle only says that another part begins). `nnue-data/FORMAT.md` gives the layout
//! byte by byte; this module is its one implementation, and the reader checks every field so
//! that a corrupt or truncated file is refused with the byte offset of the first bad block.

use crate::core::{Color, Piece, SQUARES, Square};
use crate::position::Position;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

/// Bytes per block (a header or a position).
pub const BLOCK: usize = 32;
/// The first eight bytes of a header.
pub const MAGIC: &[u8; 8] = b"CHARIOTD";
/// The format version this code reads and writes.
pub const VERSION: u16 = 1;
/// Scores are stored clamped to this many centipawns either way (mate scores become it).
pub const SCORE_LIMIT: i32 = 10_000;
/// Plies are stored up to this value (longer games keep it).
pub const PLY_LIMIT: u32 = 4095;
/// Code of an unused piece nibble's place: none, the nibbles past the piece count are zero.
const PIECE_CODES: u8 = 14;
/// Bit of the trailing word marking a header block.
const HEADER_BIT: u16 = 0x8000;

/// A game result from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl Outcome {
    /// 0, ½ or 1: the result as a training target.
    pub fn points(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    fn from_bits(bits: u16) -> Option<Outcome> {
        match bits {
            0 => Some(Outcome::Loss),
            1 => Some(Outcome::Draw),
            2 => Some(Outcome::Win),
            _ => None,
        }
    }
}

/// One position with its labels, packed as stored (see `nnue-data/FORMAT.md`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Record(pub [u8; BLOCK]);

impl std::fmt::Debug for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Record({} {:?} score {} ply {})",
            self.to_fen(),
            self.outcome(),
            self.score(),
            self.ply()
        )
    }
}

impl Record {
    /// Packs `pos` with its search score (centipawns for the side to move; clamped), the
    /// game's outcome for the side to move and the game ply.
    pub fn new(pos: &Position, score: i32, outcome: Outcome, ply: u32) -> Record {
        let mut bytes = [0u8; BLOCK];
        let mut occupied = 0u128;
        let mut nibble = 0;
        for index in 0..SQUARES {
            let sq = Square::from_index_unchecked(index as u8);
            if let Some(piece) = pos.piece_on(sq) {
                occupied |= 1u128 << index;
                bytes[12 + nibble / 2] |= (piece.index() as u8) << (4 * (nibble % 2));
                nibble += 1;
            }
        }
        bytes[..12].copy_from_slice(&occupied.to_le_bytes()[..12]);
        let score = score.clamp(-SCORE_LIMIT, SCORE_LIMIT) as i16;
        bytes[28..30].copy_from_slice(&score.to_le_bytes());
        let side = (pos.side_to_move() == Color::Black) as u16;
        let tail = ply.min(PLY_LIMIT) as u16 | (outcome as u16) << 12 | side << 14;
        bytes[30..32].copy_from_slice(&tail.to_le_bytes());
        Record(bytes)
    }

    /// Sets the game's outcome (known only when the game ends).
    pub fn set_outcome(&mut self, outcome: Outcome) {
        let tail = (self.tail() & !(3 << 12)) | (outcome as u16) << 12;
        self.0[30..32].copy_from_slice(&tail.to_le_bytes());
    }

    fn occupied(&self) -> u128 {
        let mut wide = [0u8; 16];
        wide[..12].copy_from_slice(&self.0[..12]);
        u128::from_le_bytes(wide)
    }

    fn tail(&self) -> u16 {
        u16::from_le_bytes([self.0[30], self.0[31]])
    }

    /// The pieces with their points, lowest point first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut occupied = self.occupied();
        let mut nibble = 0;
        std::iter::from_fn(move || {
            if occupied == 0 {
                return None;
            }
            let index = occupied.trailing_zeros() as u8;
            occupied &= occupied - 1;
            let code = (self.0[12 + nibble / 2] >> (4 * (nibble % 2))) & 15;
            nibble += 1;
            Some((
                Square::from_index_unchecked(index),
                piece_of_code(code).unwrap_or(Piece::new(Color::Red, crate::PieceKind::Pawn)),
            ))
        })
    }

    pub fn piece_count(&self) -> u32 {
        self.occupied().count_ones()
    }

    pub fn side_to_move(&self) -> Color {
        if self.tail() & (1 << 14) != 0 {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// The search score, centipawns for the side to move.
    pub fn score(&self) -> i32 {
        i16::from_le_bytes([self.0[28], self.0[29]]) as i32
    }

    pub fn outcome(&self) -> Outcome {
        Outcome::from_bits((self.tail() >> 12) & 3).unwrap_or(Outcome::Draw)
    }

    pub fn ply(&self) -> u32 {
        (self.tail() & 0x0fff) as u32
    }

    /// The position's FEN (placement and side to move).
    pub fn to_fen(&self) -> String {
        let mut board = [None; SQUARES];
        for (sq, piece) in self.pieces() {
            board[sq.index()] = Some(piece);
        }
        let mut fen = String::new();
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match board[Square::new(file, rank).index()] {
                    Some(p) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(match self.side_to_move() {
            Color::Red => " w",
            Color::Black => " b",
        });
        fen
    }

    /// A key for the position alone (placement and side, not the labels), for counting
    /// duplicates.
    pub fn position_key(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for &b in &self.0[..28] {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        (h ^ (self.tail() >> 14) as u64).wrapping_mul(0x0100_0000_01b3)
    }

    /// Checks every field; says what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let occupied = self.occupied();
        if occupied >> SQUARES != 0 {
            return Err("occupancy bits past point 89 are set".into());
        }
        let count = occupied.count_ones() as usize;
        if count > 32 {
            return Err(format!("{count} pieces, at most 32"));
        }
        let mut kings = [0; 2];
        for nibble in 0..32 {
            let code = (self.0[12 + nibble / 2] >> (4 * (nibble % 2))) & 15;
            if nibble >= count {
                if code != 0 {
                    return Err("a piece code past the piece count is not zero".into());
                }
                continue;
            }
            let piece = piece_of_code(code).ok_or(format!("piece code {code} is not a piece"))?;
            if piece.kind() == crate::PieceKind::King {
                kings[piece.color().index()] += 1;
            }
        }
        if kings != [1, 1] {
            return Err(format!("{} red and {} black kings", kings[0], kings[1]));
        }
        let score = self.score();
        if score.abs() > SCORE_LIMIT {
            return Err(format!("score {score} beyond ±{SCORE_LIMIT}"));
        }
        if Outcome::from_bits((self.tail() >> 12) & 3).is_none() {
            return Err("result code 3 is not a result".into());
        }
        Ok(())
    }
}

fn piece_of_code(code: u8) -> Option<Piece> {
    if code >= PIECE_CODES {
        return None;
    }
    let color = if code < 7 { Color::Red } else { Color::Black };
    Some(Piece::new(
        color,
        crate::PieceKind::ALL[(code % 7) as usize],
    ))
}

/// The header block.
pub fn header() -> [u8; BLOCK] {
    let mut bytes = [0u8; BLOCK];
    bytes[..8].copy_from_slice(MAGIC);
    bytes[8..10].copy_from_slice(&VERSION.to_le_bytes());
    bytes[10..12].copy_from_slice(&(BLOCK as u16).to_le_bytes());
    bytes[30..32].copy_from_slice(&HEADER_BIT.to_le_bytes());
    bytes
}

/// Whether a block is a header, and if so whether it is one this code reads.
fn check_header(block: &[u8; BLOCK]) -> Option<Result<(), String>> {
    if u16::from_le_bytes([block[30], block[31]]) & HEADER_BIT == 0 {
        return None;
    }
    if &block[..8] != MAGIC {
        return Some(Err("a header block without the CHARIOTD magic".into()));
    }
    let version = u16::from_le_bytes([block[8], block[9]]);
    if version != VERSION {
        return Some(Err(format!(
            "format version {version}, this build reads version {VERSION}"
        )));
    }
    let size = u16::from_le_bytes([block[10], block[11]]);
    if size as usize != BLOCK {
        return Some(Err(format!("block size {size}, expected {BLOCK}")));
    }
    Some(Ok(()))
}

/// Reads a data file block by block, never holding more than a buffer of it.
pub struct DataReader<R: Read> {
    input: R,
    offset: u64,
    name: String,
    /// Headers seen (1 for a plain file, more for concatenated files).
    pub parts: u64,
}

impl DataReader<BufReader<File>> {
    /// Opens `path`; fails at once unless it starts with a header.
    pub fn open(path: &Path) -> Result<Self, String> {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        DataReader::new(
            BufReader::with_capacity(1 << 16, file),
            &path.display().to_string(),
        )
    }
}

impl<R: Read> DataReader<R> {
    /// Reads from `input`; `name` is used in error messages.
    pub fn new(input: R, name: &str) -> Result<Self, String> {
        let mut reader = DataReader {
            input,
            offset: 0,
            name: name.to_string(),
            parts: 0,
        };
        match reader.block()? {
            Some(block) if check_header(&block).is_some() => {
                reader.accept_header(&block)?;
                Ok(reader)
            }
            Some(_) => Err(format!(
                "{}: not a Chariot data file (no CHARIOTD header at byte offset 0)",
                reader.name
            )),
            None => Err(format!(
                "{}: empty file (no CHARIOTD header at byte offset 0)",
                reader.name
            )),
        }
    }

    fn accept_header(&mut self, block: &[u8; BLOCK]) -> Result<(), String> {
        if let Some(Err(e)) = check_header(block) {
            return Err(format!(
                "{}: byte offset {}: {e}",
                self.name,
                self.offset - BLOCK as u64
            ));
        }
        self.parts += 1;
        Ok(())
    }

    /// The next raw block, `None` at a clean end.
    fn block(&mut self) -> Result<Option<[u8; BLOCK]>, String> {
        let mut block = [0u8; BLOCK];
        let mut filled = 0;
        while filled < BLOCK {
            match self.input.read(&mut block[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(format!(
                        "{}: read error at byte offset {}: {e}",
                        self.name,
                        self.offset + filled as u64
                    ));
                }
            }
        }
        if filled == 0 {
            return Ok(None);
        }
        if filled < BLOCK {
            return Err(format!(
                "{}: truncated: the block at byte offset {} has {filled} of {BLOCK} bytes",
                self.name, self.offset
            ));
        }
        self.offset += BLOCK as u64;
        Ok(Some(block))
    }

    /// The next position, `None` at the end; a bad block is an error naming its offset.
    pub fn next_record(&mut self) -> Result<Option<Record>, String> {
        loop {
            let Some(block) = self.block()? else {
                return Ok(None);
            };
            if check_header(&block).is_some() {
                self.accept_header(&block)?;
                continue;
            }
            let record = Record(block);
            record.validate().map_err(|e| {
                format!(
                    "{}: corrupt record at byte offset {}: {e}",
                    self.name,
                    self.offset - BLOCK as u64
                )
            })?;
            return Ok(Some(record));
        }
    }

    /// Byte offset of the next block.
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

/// Checks a whole file and counts its positions (streams it).
pub fn count_records(path: &Path) -> Result<u64, String> {
    let mut reader = DataReader::open(path)?;
    let mut n = 0;
    while reader.next_record()?.is_some() {
        n += 1;
    }
    Ok(n)
}

/// Writes positions after a header (or after the existing blocks, when appending).
pub struct DataWriter<W: Write> {
    output: W,
    pub written: u64,
}

impl<W: Write> DataWriter<W> {
    /// A new file: writes the header.
    pub fn new(mut output: W) -> io::Result<Self> {
        output.write_all(&header())?;
        Ok(DataWriter { output, written: 0 })
    }

    /// Continues a file that already has its header.
    pub fn continuing(output: W) -> Self {
        DataWriter { output, written: 0 }
    }

    pub fn write(&mut self, record: &Record) -> io::Result<()> {
        self.output.write_all(&record.0)?;
        self.written += 1;
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.output.flush()
    }

    pub fn into_inner(self) -> W {
        self.output
    }
}

/// Opens `path` for writing: a new file with its header, or (`append`) an existing valid
/// one at its end.
pub fn create_or_append(path: &Path, append: bool) -> Result<DataWriter<BufWriter<File>>, String> {
    if append && path.exists() {
        count_records(path)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(DataWriter::continuing(BufWriter::new(file)))
    } else {
        let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        DataWriter::new(BufWriter::new(file)).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Record> {
        let mut pos = Position::startpos();
        let mut out = vec![Record::new(&pos, 37, Outcome::Win, 0)];
        for (i, mv) in ["h2e2", "h9g7", "h0g2", "i9h9"].iter().enumerate() {
            pos.make_move(pos.parse_move(mv).unwrap());
            out.push(Record::new(
                &pos,
                -20_000 + i as i32,
                Outcome::Draw,
                i as u32 + 1,
            ));
        }
        out
    }

    #[test]
    fn records_round_trip_through_fen_and_labels() {
        let mut pos = Position::startpos();
        pos.make_move(pos.parse_move("h2e2").unwrap());
        let r = Record::new(&pos, -45, Outcome::Loss, 9000);
        assert_eq!(
            r.to_fen(),
            pos.to_fen()
                .split(' ')
                .take(2)
                .collect::<Vec<_>>()
                .join(" ")
        );
        assert_eq!(r.score(), -45);
        assert_eq!(r.outcome(), Outcome::Loss);
        assert_eq!(r.side_to_move(), Color::Black);
        assert_eq!(r.ply(), PLY_LIMIT);
        assert_eq!(r.piece_count(), 32);
        r.validate().unwrap();
        let mate = Record::new(&pos, 29_990, Outcome::Win, 3);
        assert_eq!(mate.score(), SCORE_LIMIT);
    }

    #[test]
    fn a_written_stream_reads_back_and_concatenates() {
        let records = sample();
        let mut w = DataWriter::new(Vec::new()).unwrap();
        for r in &records {
            w.write(r).unwrap();
        }
        let one = w.into_inner();
        let two: Vec<u8> = one.iter().chain(one.iter()).copied().collect();
        let mut reader = DataReader::new(&two[..], "test").unwrap();
        let mut back = Vec::new();
        while let Some(r) = reader.next_record().unwrap() {
            back.push(r);
        }
        assert_eq!(reader.parts, 2);
        assert_eq!(back.len(), 2 * records.len());
        assert_eq!(&back[..records.len()], &records[..]);
    }

    #[test]
    fn truncated_and_corrupt_files_name_the_offset() {
        let mut w = DataWriter::new(Vec::new()).unwrap();
        for r in &sample() {
            w.write(r).unwrap();
        }
        let bytes = w.into_inner();
        let cut = &bytes[..bytes.len() - 5];
        let mut reader = DataReader::new(cut, "t").unwrap();
        let err = loop {
            match reader.next_record() {
                Ok(Some(_)) => {}
                Ok(None) => panic!("a truncated file read to the end"),
                Err(e) => break e,
            }
        };
        assert!(
            err.contains("truncated") && err.contains("byte offset 160 has 27 of 32"),
            "{err}"
        );

        let mut bad = bytes.clone();
        bad[BLOCK * 2 + 12] = 0xff; // the second record's first piece: code 15
        let mut reader = DataReader::new(&bad[..], "t").unwrap();
        assert!(reader.next_record().unwrap().is_some());
        let err = reader.next_record().unwrap_err();
        assert!(err.contains("corrupt record at byte offset 64"), "{err}");

        let err = DataReader::new(&bytes[BLOCK..], "t").err().unwrap();
        assert!(err.contains("not a Chariot data file"), "{err}");
        assert!(
            DataReader::new(&[][..], "t")
                .err()
                .unwrap()
                .contains("empty")
        );
        let mut future = bytes.clone();
        future[8] = 9;
        assert!(
            DataReader::new(&future[..], "t")
                .err()
                .unwrap()
                .contains("version 9")
        );
    }
}

//! The fast path of the line parser: a good line is read straight into typed fields (no
//! `serde_json::Value` tree), and a shape's `points` array is matched against the point lists already
//! read, by its text, so that a shape that repeats across lines (the same points as written and the same
//! radius) is converted and built once and then shared ([`ShapeCache`]). On the `bench --io` mix (80 MB,
//! 400 distinct shapes) serde_json's typed reader spent its time scanning the repeated point lists; a
//! byte comparison with the cached text skips them at memory speed.
//!
//! This path only ever answers good lines. Anything it does not accept (a syntax error, an unknown or
//! repeated field, a number out of range, a value past a limit) goes to the field-by-field reader in
//! [`super::parse`], which then gives the line's answer or its error: the error texts come from one place,
//! and a line this path takes is one that reader takes with the same result (the numbers convert to the
//! floats serde_json gives, which `plain_decimals_convert_as_serde_json_does` checks, and the checks and
//! the shape building are the same functions; `tests/parser_fuzz.rs` compares the two readers line by
//! line on generated and mutated lines).

use super::lexical::vanishes_in_f64;
use super::parse::{
    centred_shape, normalised, place, within_coordinate_range, PairInput, PlacedShape,
};
use crate::io::pair_id::PairId;
use crate::pose::DPose;
use crate::shape::ConvexShape;
use glam::{DQuat, DVec3};
use rustc_hash::FxHashMap;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, OnceLock, RwLock};

/// Parses a good line; `None` for anything else (the caller then asks [`super::parse::parse_line`]).
pub fn parse_good_line(line: &[u8], cache: &ShapeCache) -> Option<PairInput> {
    let mut at = Cursor { text: line, i: 0 };
    let (mut a, mut b, mut id) = (None, None, None);
    at.object(|at, key| {
        let slot = match key {
            b"a" => &mut a,
            b"b" => &mut b,
            b"id" if id.is_none() => {
                id = Some(at.id()?);
                return Some(());
            }
            _ => return None,
        };
        if slot.is_some() {
            return None;
        }
        *slot = Some(at.shape(cache)?);
        Some(())
    })?;
    at.skip_space();
    if at.i != line.len() {
        return None;
    }
    Some(PairInput { a: a?, b: b?, id })
}

/// A read position in a line. Every method returns `None` on anything but the plain layout of a good
/// line (no escapes in keys, no repeated keys), which then goes to the field-by-field reader.
struct Cursor<'a> {
    text: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.i) {
            self.i += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_space();
        (self.text.get(self.i) == Some(&byte)).then(|| self.i += 1)
    }

    /// `{"key": value, ...}`, each value read by `member`.
    fn object(&mut self, mut member: impl FnMut(&mut Self, &[u8]) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        loop {
            self.eat(b'"')?;
            let rest = &self.text[self.i..];
            let len = rest.iter().position(|&c| c == b'"')?;
            let key = &rest[..len];
            if key.contains(&b'\\') {
                return None;
            }
            self.i += len + 1;
            self.eat(b':')?;
            member(self, key)?;
            self.skip_space();
            match self.text.get(self.i)? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// One number token, converted as serde_json converts it in a document (so the same float): a plain
    /// decimal in one pass here (see [`plain_decimal`]), any other token by serde_json. A token other than
    /// 0 that float64 reads as 0 (`1e-400`) is left to the field reader, which names it where it is too
    /// small (see `Vanished` in [`super::parse`]).
    fn number(&mut self) -> Option<f64> {
        self.skip_space();
        let start = self.i;
        if let Some((x, len)) = plain_decimal(&self.text[start..]) {
            self.i += len;
            return Some(x);
        }
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.text.get(self.i) {
            self.i += 1;
        }
        let token = &self.text[start..self.i];
        let x: f64 = serde_json::from_slice(token).ok()?;
        (x != 0.0 || !vanishes_in_f64(token)).then_some(x)
    }

    fn numbers<const N: usize>(&mut self) -> Option<[f64; N]> {
        self.eat(b'[')?;
        let mut out = [0.0; N];
        for (k, x) in out.iter_mut().enumerate() {
            if k > 0 {
                self.eat(b',')?;
            }
            *x = self.number()?;
        }
        self.eat(b']')?;
        Some(out)
    }

    /// `[[x, y, z], ...]`: at least one point, every coordinate within the coordinate limit.
    fn point_list(&mut self) -> Option<Vec<DVec3>> {
        self.eat(b'[')?;
        let mut points = Vec::new();
        loop {
            let point = self.numbers::<3>()?;
            if !point.iter().all(|&x| within_coordinate_range(x)) {
                return None;
            }
            points.push(DVec3::from_array(point));
            self.skip_space();
            match self.text.get(self.i)? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Some(points);
                }
                _ => return None,
            }
        }
    }

    /// An `"id"`: a string without escapes or control characters, or an integer without a sign on 0 or a
    /// leading 0 (anything else, `-0` included, is left to the field reader).
    fn id(&mut self) -> Option<PairId> {
        self.skip_space();
        let rest = &self.text[self.i..];
        if rest.first() == Some(&b'"') {
            let len = rest[1..].iter().position(|&c| c == b'"')?;
            let text = &rest[1..1 + len];
            if text.iter().any(|&c| c == b'\\' || c < 0x20) {
                return None;
            }
            self.i += len + 2;
            return Some(PairId::Text(std::str::from_utf8(text).ok()?.into()));
        }
        let negative = rest.first() == Some(&b'-');
        let digits = rest[usize::from(negative)..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let len = usize::from(negative) + digits;
        let token = &rest[..len];
        let plain =
            digits > 0 && (token[usize::from(negative)] != b'0' || digits == 1 && !negative);
        if !plain || matches!(rest.get(len), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        let token = std::str::from_utf8(token).ok()?;
        let id = match token.parse::<i64>() {
            Ok(n) => PairId::Int(n),
            Err(_) => PairId::UInt(token.parse::<u64>().ok()?),
        };
        self.i += len;
        Some(id)
    }

    fn shape(&mut self, cache: &ShapeCache) -> Option<PlacedShape> {
        let mut fields = ShapeFields::default();
        self.object(|at, key| {
            match key {
                b"points" if fields.points.is_none() => {
                    at.skip_space();
                    let (points, len) = cache.points(&at.text[at.i..])?;
                    at.i += len;
                    fields.points = Some(points);
                }
                b"radius" if fields.radius.is_none() => fields.radius = Some(at.number()?),
                b"position" if fields.position.is_none() => fields.position = Some(at.numbers()?),
                b"rotation" if fields.rotation.is_none() => fields.rotation = Some(at.numbers()?),
                _ => return None,
            }
            Some(())
        })?;
        fields.placed(cache)
    }
}

/// Powers of ten, all exact in float64.
const POW10: [f64; 20] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19,
];

/// The plain decimal token (`-?(0|[1-9][0-9]*)(.[0-9]+)?`, at most 19 digits) that `text` starts with,
/// and its length, converted to the nearest float64, as serde_json converts it with its `float_roundtrip`
/// feature (which this build enables). When the digits as one integer are below 2^53 both it and the power
/// of ten are exact in float64, so their quotient is rounded once (Clinger's fast path); otherwise the
/// token, whose syntax is checked here, goes to the standard library's correctly rounded conversion. (The
/// integer rounded first and then divided, serde_json's conversion without `float_roundtrip`, rounds twice:
/// "-999000000.0000613" came out as -999000000.0000612, 1.2e-7 off.) Any other token (an exponent, more
/// digits, a malformed number) returns `None` and goes to serde_json itself. Measured: serde_json's
/// deserializer set up for each lone token cost more than the conversion; the test
/// `plain_decimals_convert_as_serde_json_does` compares the two on random tokens, so a serde_json that
/// converts otherwise fails it.
fn plain_decimal(text: &[u8]) -> Option<(f64, usize)> {
    let negative = text.first() == Some(&b'-');
    let mut i = usize::from(negative);
    let mut significand = 0u64;
    let mut digits = |i: &mut usize| {
        let from = *i;
        while let Some(value) = text.get(*i..*i + 8).and_then(eight_digits) {
            significand = significand.wrapping_mul(100_000_000).wrapping_add(value);
            *i += 8;
        }
        while let Some(&d @ b'0'..=b'9') = text.get(*i) {
            significand = significand
                .wrapping_mul(10)
                .wrapping_add(u64::from(d - b'0'));
            *i += 1;
        }
        *i - from
    };
    let whole_from = i;
    let whole = digits(&mut i);
    let fraction = match text.get(i) {
        Some(b'.') => {
            i += 1;
            match digits(&mut i) {
                0 => return None,
                n => n,
            }
        }
        _ => 0,
    };
    let leading_zero = whole > 1 && text[whole_from] == b'0';
    let more = matches!(text.get(i), Some(b'e' | b'E' | b'+' | b'-' | b'.'));
    if whole == 0 || leading_zero || more || whole + fraction > 19 {
        return None;
    }
    const EXACT_INTEGERS: u64 = 1 << f64::MANTISSA_DIGITS;
    if significand >= EXACT_INTEGERS {
        let token = std::str::from_utf8(&text[..i]).expect("ASCII digits");
        return Some((token.parse().expect("a checked plain decimal"), i));
    }
    let f = significand as f64 / POW10[fraction];
    Some((if negative { -f } else { f }, i))
}

/// The value of eight ASCII digits (the first one the most significant), or `None` when one of the bytes
/// is not a digit. Measured: the pose numbers of the `bench --io` mix have 16 to 18 digits, and a digit at a
/// time is a chain of dependent multiply-adds that was most of `Cursor::number`'s time; eight at once
/// take three multiplications (the SWAR method of fast_float).
fn eight_digits(bytes: &[u8]) -> Option<u64> {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const HIGH_NIBBLES: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    let x = u64::from_le_bytes(bytes.try_into().ok()?);
    // Every byte in '0'..='9': its high nibble is 3, and adding 6 keeps it 3.
    if x & HIGH_NIBBLES != ZEROS || x.wrapping_add(0x0606_0606_0606_0606) & HIGH_NIBBLES != ZEROS {
        return None;
    }
    let d = x - ZEROS;
    // Neighbouring digits into two-digit values (in bytes 0, 2, 4, 6), then those into the whole.
    let pairs = d.wrapping_mul(10).wrapping_add(d >> 8);
    const LANES: u64 = 0x0000_00FF_0000_00FF;
    let high = (pairs & LANES).wrapping_mul(100 + (1_000_000 << 32));
    let low = ((pairs >> 16) & LANES).wrapping_mul(1 + (10_000 << 32));
    Some(high.wrapping_add(low) >> 32)
}

#[derive(Default)]
struct ShapeFields {
    points: Option<Arc<Points>>,
    radius: Option<f64>,
    position: Option<[f64; 3]>,
    rotation: Option<[f64; 4]>,
}

impl ShapeFields {
    fn placed(self, cache: &ShapeCache) -> Option<PlacedShape> {
        let radius = match self.radius {
            None => 0.0,
            Some(r) if r >= 0.0 && within_coordinate_range(r) => r as f32,
            Some(_) => return None,
        };
        let position = match self.position {
            None => DVec3::ZERO,
            Some(p) if p.iter().all(|&x| within_coordinate_range(x)) => DVec3::from_array(p),
            Some(_) => return None,
        };
        let rotation = match self.rotation {
            None => DQuat::IDENTITY,
            Some(q) => normalised(DQuat::from_array(q))?,
        };
        let pose = DPose::checked(position, rotation).ok()?;
        let (shape, centre, listed) = self.points?.shape(radius, cache)?;
        let mut placed = place(shape, centre, pose);
        placed.listed = listed;
        Some(placed)
    }
}

/// A built shape, the centre its points were moved by, and its index in the cache's shape list (when the
/// cache lists its shapes, see [`ShapeCache::listing`]).
type Built = (Arc<ConvexShape>, DVec3, Option<u32>);

/// One point list as written, converted, with the shapes built from it, one per radius seen: the first
/// (nearly always the only one) is read without a lock, since the lock taken for every shape cost about
/// 1-2% of the parsing on the `bench --io` mix; any other radius waits for `others`.
struct Points {
    text: Box<[u8]>,
    points: Vec<DVec3>,
    first: OnceLock<(u32, Built)>,
    others: Mutex<Vec<(u32, Built)>>,
}

impl Points {
    fn shape(&self, radius: f32, cache: &ShapeCache) -> Option<Built> {
        let bits = radius.to_bits();
        let first = |first: &OnceLock<(u32, Built)>| match first.get() {
            Some((b, built)) if *b == bits => Some(built.clone()),
            _ => None,
        };
        if let Some(built) = first(&self.first) {
            return Some(built);
        }
        // Another radius, or the first shape not built yet: the lock keeps two threads from building it twice.
        let mut others = self.others.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(built) = first(&self.first) {
            return Some(built);
        }
        if let Some((_, built)) = others.iter().find(|(b, _)| *b == bits) {
            return Some(built.clone());
        }
        let (shape, centre) = centred_shape(&self.points, radius).ok()?;
        let shape = Arc::new(shape);
        let listed = cache.list(&shape);
        let built = (shape, centre, listed);
        if self.first.get().is_none() {
            let _ = self.first.set((bits, built.clone()));
        } else {
            others.push((bits, built.clone()));
        }
        Some(built)
    }
}

/// The most point-list bytes (their text and their float64 points) the cache holds; past it, it starts
/// again empty. A stream of distinct shapes would otherwise keep every one it ever read (347 MB for a
/// 100 MB file of distinct 8-point shapes, seen), against the promise that `query`'s memory does not grow
/// with its input; repeats of a working set this size or smaller are still read once.
const CACHE_BUDGET_BYTES: usize = 32 << 20;

/// Point lists are first looked up by a hash of their first bytes: this many, the length of the shortest
/// list there is (`[[0,0,0]]`).
const PREFIX_BYTES: usize = 9;

/// Most point lists kept under one hash, of either kind (see [`ShapeCache`]): no lookup compares more
/// than this many texts.
const LISTS_PER_HASH: usize = 4;

/// The point lists read so far, by their text, shared by the threads that parse. A cached text is a whole
/// JSON array that converted, so when a line's bytes where its list starts begin with it (or equal it),
/// that is exactly the line's list, and the line's numbers are neither converted again nor its shape built
/// again.
///
/// Two lookups. The first, by a hash of a list's first `PREFIX_BYTES` bytes, costs a comparison with the
/// few texts of that hash: the usual case, where distinct shapes begin differently. Lists whose beginning
/// is shared by `LISTS_PER_HASH` cached lists already go to the second, by a hash of their whole text
/// (the end found from the brackets alone, `list_extent`). With the first alone, 50,000 distinct lists
/// that all began with `[[0,0,0],` shared one hash, and each new line compared its list with every one
/// before it (27 s for a 12 MB file that takes 0.3 s otherwise; found by a hostile-input audit). The whole
/// text costs more to hash than the first bytes (about a fifth more reading time on `bench --io`'s file
/// when every list took it), so only lists the first lookup cannot tell apart pay it. The whole-text hash is
/// fast, not keyed: a file can make it collide, and then lists past `LISTS_PER_HASH` are converted every
/// time instead of cached (linear still).
///
/// A cache made by [`ShapeCache::listing`] is also the batch's one shape de-duplication: each shape it builds,
/// and each shape of a line the field-by-field reader took, is listed there once, and the placed shape
/// carries its index ([`PlacedShape::listed`]); a batch that goes to the GPU whole is uploaded from that list
/// ([`super::reader::indexed_batch`]), without comparing shapes again.
#[derive(Default)]
pub struct ShapeCache {
    lists: RwLock<Lists>,
    /// The shapes handed out, by index; `None` unless the cache lists them.
    listed: Option<Mutex<Vec<Arc<ConvexShape>>>>,
}

#[derive(Default)]
struct Lists {
    by_prefix: FxHashMap<u64, Vec<Arc<Points>>>,
    /// Lists whose prefix hash already held its share when they came.
    by_text: FxHashMap<u64, Vec<Arc<Points>>>,
    /// The bytes of the lists held (see [`CACHE_BUDGET_BYTES`]).
    bytes: usize,
}

/// Where a list that `rest` starts with is, or goes, in the cache.
#[derive(Clone, Copy)]
enum Slot {
    /// Under this prefix hash, which has room or holds it.
    Prefix(u64),
    /// Under the hash of its whole text, which is this long.
    Text(u64, usize),
}

impl Lists {
    /// The cached list `rest` starts with, or the slot where it goes (`None`: not a good list).
    fn find(&self, rest: &[u8], prefix: u64) -> Result<Arc<Points>, Option<Slot>> {
        let starts =
            |lists: &Vec<Arc<Points>>| lists.iter().find(|p| rest.starts_with(&p.text)).cloned();
        let shared = match self.by_prefix.get(&prefix) {
            Some(lists) => match starts(lists) {
                Some(hit) => return Ok(hit),
                None => lists.len() >= LISTS_PER_HASH,
            },
            None => false,
        };
        if !shared {
            return Err(Some(Slot::Prefix(prefix)));
        }
        let len = list_extent(rest).ok_or(None)?;
        let key = rustc_hash::FxBuildHasher.hash_one(&rest[..len]);
        match self.by_text.get(&key).and_then(starts) {
            Some(hit) => Ok(hit),
            None => Err(Some(Slot::Text(key, len))),
        }
    }

    /// Keeps `points` in `slot` when it has room; starts again empty first when the budget would be
    /// exceeded (the slot is then the prefix one, found again).
    fn keep(&mut self, slot: Slot, prefix: u64, points: &Arc<Points>) {
        let bytes = points.text.len() + points.points.len() * std::mem::size_of::<DVec3>();
        let slot = if self.bytes + bytes > CACHE_BUDGET_BYTES {
            self.by_prefix.clear();
            self.by_text.clear();
            self.bytes = 0;
            Slot::Prefix(prefix)
        } else {
            slot
        };
        let lists = match slot {
            Slot::Prefix(key) => self.by_prefix.entry(key).or_default(),
            Slot::Text(key, _) => self.by_text.entry(key).or_default(),
        };
        if lists.len() < LISTS_PER_HASH {
            lists.push(points.clone());
            self.bytes += bytes;
        }
    }

    fn all(&self) -> impl Iterator<Item = &Arc<Points>> {
        self.by_prefix
            .values()
            .chain(self.by_text.values())
            .flatten()
    }
}

impl ShapeCache {
    /// A cache that also lists the shapes it hands out (see [`ShapeCache`]). The list keeps every shape read,
    /// so its memory grows with the distinct shapes of the input: for a batch that is held whole anyway.
    pub fn listing() -> Self {
        Self {
            listed: Some(Mutex::default()),
            ..Self::default()
        }
    }

    /// Adds `shape` to the list and returns its index; `None` when the cache does not list.
    fn list(&self, shape: &Arc<ConvexShape>) -> Option<u32> {
        let mut listed = self
            .listed
            .as_ref()?
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let index = u32::try_from(listed.len()).expect("a batch lists fewer than 2^32 shapes");
        listed.push(shape.clone());
        Some(index)
    }

    /// Lists the shapes of a pair that the field-by-field reader built (each its own shape, as that reader
    /// shares none); nothing when the cache does not list.
    pub(crate) fn list_pair(&self, pair: &mut PairInput) {
        if self.listed.is_some() {
            pair.a.listed = self.list(&pair.a.shape);
            pair.b.listed = self.list(&pair.b.shape);
        }
    }

    /// The listed shapes, by index: what [`PlacedShape::listed`] indexes.
    ///
    /// # Panics
    /// When the cache does not list its shapes ([`ShapeCache::listing`]).
    pub(crate) fn into_listed(self) -> Vec<Arc<ConvexShape>> {
        self.listed
            .expect("a batch's pairs index a listing ShapeCache")
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// How many distinct shapes (point lists and radius) the cache holds now.
    pub fn len(&self) -> usize {
        let lists = self.lists.read().unwrap_or_else(|e| e.into_inner());
        lists
            .all()
            .map(|p| {
                usize::from(p.first.get().is_some())
                    + p.others.lock().unwrap_or_else(|e| e.into_inner()).len()
            })
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of the point lists held (at most [`CACHE_BUDGET_BYTES`]).
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.lists.read().unwrap_or_else(|e| e.into_inner()).bytes
    }

    /// The point list that `rest` starts with, and its length in bytes; `None` when it is not a good
    /// point list.
    fn points(&self, rest: &[u8]) -> Option<(Arc<Points>, usize)> {
        let prefix = rustc_hash::FxBuildHasher.hash_one(rest.get(..PREFIX_BYTES)?);
        let hit = |p: Arc<Points>| {
            let len = p.text.len();
            (p, len)
        };
        let slot = match self
            .lists
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .find(rest, prefix)
        {
            Ok(found) => return Some(hit(found)),
            Err(slot) => slot?,
        };
        let (points, len) = convert(rest)?;
        if let Slot::Text(_, extent) = slot {
            // A good list's extent is the one its brackets give; anything else is not a good list.
            if extent != len {
                return None;
            }
        }
        let mut lists = self.lists.write().unwrap_or_else(|e| e.into_inner());
        // Another thread may have read the same list meanwhile, or filled the slot: look again, and keep the
        // first, so that a list is stored once.
        let slot = match lists.find(rest, prefix) {
            Ok(found) => return Some(hit(found)),
            Err(slot) => slot?,
        };
        let points = Arc::new(points);
        lists.keep(slot, prefix, &points);
        Some((points, len))
    }
}

/// The length of the array of arrays that `rest` starts with, from its brackets alone: up to the first `]`
/// that follows another `]` with nothing but white space between them (`[[1,2,3],[4,5,6]]`). A good point
/// list holds only numbers inside, which have no brackets, so this is its length; for anything else it is
/// some length or `None`, and [`convert`] decides.
fn list_extent(rest: &[u8]) -> Option<usize> {
    if rest.first() != Some(&b'[') {
        return None;
    }
    let mut at = 1;
    loop {
        at += memchr::memchr(b']', &rest[at..])? + 1;
        let after = rest[at..]
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map(|k| at + k)?;
        match rest[after] {
            b']' => return Some(after + 1),
            b',' => at = after + 1,
            _ => return None,
        }
    }
}

/// Reads the JSON array `rest` starts with as a point list within the coordinate limit. Its numbers are
/// read as the pose's are ([`Cursor::number`]): measured on the `bench --io` mix, serde_json's reader (a raw
/// value to find the list's end, then a typed pass over it) spent 4% of the parsing on the 400 lists
/// that were new.
fn convert(rest: &[u8]) -> Option<(Points, usize)> {
    let mut at = Cursor { text: rest, i: 0 };
    let points = at.point_list()?;
    let len = at.i;
    Some((
        Points {
            text: rest[..len].into(),
            points,
            first: OnceLock::new(),
            others: Mutex::new(Vec::new()),
        },
        len,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::jsonl::parse_line;

    fn both(line: &str) -> (Option<PairInput>, Result<PairInput, String>) {
        let cache = ShapeCache::default();
        (
            parse_good_line(line.as_bytes(), &cache),
            parse_line(line.as_bytes()),
        )
    }

    #[test]
    fn good_lines_read_as_the_field_reader_reads_them() {
        for line in [
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,2,3],[4,5,6]], "radius": 0.5}}"#,
            r#"{"b": {"rotation": [0,0,1e-300,0], "points": [[1e9,-1e9,0.1]], "position": [-0,1e-7,3]}, "a": {"points": [[0.30000000000000004,0,0]]}}"#,
            r#" { "a" : { "points" : [ [ 0 , 0 , 0 ] ] } , "b": {"points": [[1, 2, 3]], "radius": 1000000000} } "#,
        ] {
            let (fast, reader) = both(line);
            assert_eq!(fast, Some(reader.unwrap()), "{line}");
        }
    }

    #[test]
    fn ids_read_as_the_field_reader_reads_them() {
        let pair = r#""a": {"points": [[0,0,0]]}, "b": {"points": [[1,2,3]]}"#;
        for id in [
            "7",
            "-7",
            "0",
            "9223372036854775807",
            "-9223372036854775808",
            "18446744073709551615",
            r#""k-7""#,
            r#""é""#,
            r#""""#,
        ] {
            for line in [
                format!(r#"{{"id": {id}, {pair}}}"#),
                format!(r#"{{{pair}, "id" : {id} }}"#),
            ] {
                let (fast, reader) = both(&line);
                assert!(fast.as_ref().is_some_and(|p| p.id.is_some()), "{line}");
                assert_eq!(fast, Some(reader.unwrap()), "{line}");
            }
        }
        // Left to the field reader, which takes some and refuses the others.
        for id in [
            "-0",
            "07",
            "7.0",
            "1e2",
            "18446744073709551616",
            r#""a\"b""#,
            r#""\u0041""#,
            "true",
            "null",
            "[7]",
        ] {
            let line = format!(r#"{{"id": {id}, {pair}}}"#);
            let (fast, _) = both(&line);
            assert!(fast.is_none(), "{line}");
        }
        let (fast, reader) = both(&format!(r#"{{"id": 1, "id": 2, {pair}}}"#));
        assert!(fast.is_none() && reader.is_err());
    }

    #[test]
    fn unusual_good_lines_are_left_to_the_field_reader() {
        // An escaped key: a good line this path does not take.
        let line = r#"{"\u0061": {"points": [[0,0,0]]}, "b": {"points": [[1, 2, 3]]}}"#;
        let (fast, reader) = both(line);
        assert!(fast.is_none() && reader.is_ok(), "{line}");
        // A quaternion component too small for float64: 0 to the field reader, as to serde_json.
        let line = r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,2,3]], "rotation": [1e-400,0,0,1]}}"#;
        let (fast, reader) = both(line);
        let plain = both(&line.replace("1e-400", "0")).1.unwrap();
        assert_eq!((fast, reader), (None, Ok(plain)), "{line}");
    }

    #[test]
    fn lines_the_reader_refuses_are_not_taken() {
        for line in [
            r#"{"a": {"points": [[0,0,0]]}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "radius": null}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "position": null}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,1e999]]}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,2e9]]}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": []}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "radius": -1}}"#,
            r#"{"a": {"points": [[9,9,9]]}, "a": {"points": [[0,0,0]]}, "b": {"points": [[1,2,3]]}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "radius": -1, "radius": 2}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "radius": 1e-46}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "position": [3e-46,0,0]}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0],[1e-300,0,0]]}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0],[1e-400,0,0]]}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "radius": 2E-999}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "position": [0,-1e-400,0]}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "rotation": [0,0,0,0]}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "pos": [0,0,0]}}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]]}, "c": 1}"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]]}} x"#,
            r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,"1",0]]}}"#,
        ] {
            let (fast, reader) = both(line);
            assert!(fast.is_none() && reader.is_err(), "{line}");
        }
    }

    #[test]
    fn eight_digits_read_as_a_number() {
        for text in ["00000000", "12345678", "99999999", "90000001", "00000010"] {
            assert_eq!(
                eight_digits(text.as_bytes()),
                Some(text.parse().unwrap()),
                "{text}"
            );
        }
        for text in [
            "1234567/",
            "1234567:",
            "a2345678",
            "1234 678",
            "1234567\u{7f}",
            "1234567",
        ] {
            assert_eq!(eight_digits(text.as_bytes()), None, "{text:?}");
        }
        for byte in 0..=255u8 {
            let mut text = *b"11111111";
            for at in [0, 3, 7] {
                text[at] = byte;
                let digit = byte.is_ascii_digit();
                let expected = digit.then(|| std::str::from_utf8(&text).unwrap().parse().unwrap());
                assert_eq!(eight_digits(&text), expected, "{text:?}");
                text[at] = b'1';
            }
        }
    }

    // rand comes with the `scenario` feature, which `io` alone does not enable.
    #[cfg(feature = "scenario")]
    #[test]
    fn plain_decimals_convert_as_serde_json_does() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(17);
        let mut taken = 0;
        for _ in 0..200_000 {
            let mut token = String::new();
            if rng.random_bool(0.5) {
                token.push('-');
            }
            let digits = rng.random_range(1..=21);
            let point = rng.random_range(0..=digits);
            for k in 0..digits {
                if k == point && k > 0 {
                    token.push('.');
                }
                token.push(char::from(b'0' + rng.random_range(0..10u8)));
            }
            if rng.random_bool(0.02) {
                token.push_str(["e5", ".", "-", "1.5"][rng.random_range(0..4)]);
            }
            let reference = serde_json::from_str::<f64>(&token).ok();
            match plain_decimal(token.as_bytes())
                .filter(|&(_, len)| len == token.len())
                .map(|(x, _)| x)
            {
                Some(x) => {
                    taken += 1;
                    assert_eq!(Some(x.to_bits()), reference.map(f64::to_bits), "{token}");
                }
                None => assert!(
                    token.len() > 19 || reference.is_none() || token.contains('e'),
                    "{token} left to serde_json"
                ),
            }
        }
        assert!(taken > 100_000, "{taken}");
        for token in [
            "-0",
            "0",
            "0.0",
            "-0.5",
            "9999999999999999999",
            "1",
            "9.999999999999999999",
            "-999000000.0000613",
            "998999999.9999251",
        ] {
            assert_eq!(
                plain_decimal(token.as_bytes()).map(|(x, _)| x.to_bits()),
                serde_json::from_str::<f64>(token).ok().map(f64::to_bits),
                "{token}"
            );
            // The nearest float64: the standard library's conversion is correctly rounded.
            assert_eq!(
                plain_decimal(token.as_bytes()).map(|(x, _)| x.to_bits()),
                token.parse::<f64>().ok().map(f64::to_bits),
                "{token}"
            );
        }
    }

    /// `n` distinct point lists of `points` points each, all alike but for their last coordinate.
    fn lists_alike(n: usize, points: usize) -> Vec<String> {
        (0..n)
            .map(|k| {
                let mut text = "[[0,0,0]".to_string();
                for p in 1..points {
                    text.push_str(&format!(
                        ",[{p},0.5,{}]",
                        if p + 1 == points { k } else { 0 }
                    ));
                }
                text + "]"
            })
            .collect()
    }

    #[test]
    fn lists_with_the_same_start_are_kept_apart_by_their_whole_text() {
        let cache = ShapeCache::default();
        let lists = lists_alike(1000, 20);
        for text in &lists {
            let (points, len) = cache.points(text.as_bytes()).unwrap();
            assert_eq!(len, text.len());
            assert_eq!(*points.text, *text.as_bytes());
        }
        // Read again: the same cached lists, each found under its own hash.
        for text in &lists {
            let (points, _) = cache.points(text.as_bytes()).unwrap();
            assert_eq!(*points.text, *text.as_bytes());
        }
        // The first lists under their shared prefix, every other one under its own whole-text hash.
        let lists_held = cache.lists.read().unwrap();
        assert_eq!(lists_held.by_prefix.len(), 1);
        assert_eq!(
            lists_held.by_prefix.values().next().unwrap().len(),
            LISTS_PER_HASH
        );
        assert_eq!(lists_held.by_text.len(), 1000 - LISTS_PER_HASH);
        assert!(lists_held.by_text.values().all(|l| l.len() == 1));
    }

    #[test]
    fn the_cache_starts_again_past_its_budget() {
        let cache = ShapeCache::default();
        // 1,000-point lists of about 40 KB of text and points each: 1,500 of them are past the budget.
        let lists = lists_alike(1500, 1000);
        let mut most = 0;
        for text in &lists {
            cache.points(text.as_bytes()).unwrap();
            most = most.max(cache.bytes());
        }
        assert!(most <= CACHE_BUDGET_BYTES, "{most}");
        assert!(most > CACHE_BUDGET_BYTES / 2, "{most}");
        assert!(cache.bytes() < most, "the cache never started again");
        // A list read before the restart is still read right.
        let (points, _) = cache.points(lists[0].as_bytes()).unwrap();
        assert_eq!(points.points.len(), 1000);
    }

    #[test]
    fn a_list_ends_at_its_closing_brackets() {
        for (text, end) in [
            ("[[0,0,0]]", Some(9)),
            ("[[0,0,0]] , \"radius\": 1}", Some(9)),
            ("[ [1, 2, 3] ,\t[4,5,6] \n] }", Some(24)),
            ("[[1,2,3],[4,5,6]", None),
            ("[[1,2,3] x]", None),
            ("[1,2,3]", None),
            ("{\"x\": 1}", None),
            ("", None),
        ] {
            assert_eq!(list_extent(text.as_bytes()), end, "{text:?}");
        }
        // Brackets inside something that is not a number: some extent, and the conversion refuses it.
        let cache = ShapeCache::default();
        assert!(cache.points(br#"[[1,2,"]]"]]"#).is_none());
        assert!(cache.points(b"[[1,2,3]]]").is_some());
    }

    #[test]
    fn repeated_shapes_are_built_once() {
        let cache = ShapeCache::default();
        let line = r#"{"a": {"points": [[0,0,0],[1,0,0]], "position": [5,0,0]}, "b": {"points": [[0,0,0],[1,0,0]]}}"#;
        let first = parse_good_line(line.as_bytes(), &cache).unwrap();
        let second = parse_good_line(line.as_bytes(), &cache).unwrap();
        assert!(Arc::ptr_eq(&first.a.shape, &first.b.shape));
        assert!(Arc::ptr_eq(&first.a.shape, &second.b.shape));
        assert_eq!(first.a.pose.folded().position, DVec3::new(5.5, 0.0, 0.0));
        // Another radius is another shape.
        let rounded = line.replace(r#""position""#, r#""radius": 0.25, "position""#);
        let third = parse_good_line(rounded.as_bytes(), &cache).unwrap();
        assert!(!Arc::ptr_eq(&third.a.shape, &third.b.shape));
        assert_eq!(third.a.shape.radius(), 0.25);
        assert_eq!(cache.len(), 2);
    }
}

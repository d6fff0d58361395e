//! YaneuraOu's NNUE file (`nn.bin`) for the HalfKP family: its header, hashes and layout.
//!
//! All little-endian: `u32` version `0x7AF32F16`, `u32` hash of the architecture, `u32` length
//! and ASCII text of the architecture string; then the feature transformer (`u32` hash, `i16`
//! biases, `i16` weights feature by feature) and the network (`u32` hash, then per affine layer
//! from the input up: `i32` biases and `i8` weights row by row, each row padded to 32 inputs),
//! and nothing after. The hashes follow from the layer sizes (`Arch::hashes`); YaneuraOu only
//! warns when they differ, shomei refuses the file, since a wrong hash means either another
//! architecture or damage. The architecture string is shown, never parsed for the sizes.

use super::features::INPUTS;
use super::layers::padded;
use std::fmt;

/// The first word of every YaneuraOu NNUE file.
pub const VERSION: u32 = 0x7AF3_2F16;
/// The longest architecture string accepted (YaneuraOu's are under 300 bytes).
pub const MAX_ARCH_STRING: usize = 4096;
/// The longest file of the family: no reader needs more bytes than this to refuse one.
pub const MAX_FILE_LEN: usize = 12 + MAX_ARCH_STRING + Arch::K1024x2_8_64.body_len();

/// The members of the HalfKP family this build reads: accumulator width per perspective and
/// the two hidden layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// `halfkp_256x2-32-32`, the shape of most published nets.
    K256x2_32_32,
    /// `halfkp_512x2-16-32`.
    K512x2_16_32,
    /// `halfkp_1024x2-8-32`.
    K1024x2_8_32,
    /// `halfkp_1024x2-8-64`.
    K1024x2_8_64,
}

/// The hash words a file of one architecture carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hashes {
    /// The feature transformer's (before its biases).
    pub transformer: u32,
    /// The network's (before its first layer).
    pub network: u32,
    /// The header's: the two above XORed.
    pub header: u32,
}

/// A layer's hash from its output count and the hash of the layer below, as YaneuraOu's
/// affine layers (dense or sparse-input alike) compute it.
const fn affine_hash(outputs: u32, below: u32) -> u32 {
    0xCC03_DAE4u32.wrapping_add(outputs) ^ (below >> 1) ^ (below << 31)
}

/// A clipped ReLU's hash from the layer below.
const fn clipped_relu_hash(below: u32) -> u32 {
    0x538D_24C7u32.wrapping_add(below)
}

impl Arch {
    /// Every member, smallest first.
    pub const ALL: [Arch; 4] =
        [Arch::K256x2_32_32, Arch::K512x2_16_32, Arch::K1024x2_8_32, Arch::K1024x2_8_64];

    /// Accumulator width per perspective, then the two hidden layers' widths.
    pub const fn dims(self) -> (usize, usize, usize) {
        match self {
            Arch::K256x2_32_32 => (256, 32, 32),
            Arch::K512x2_16_32 => (512, 16, 32),
            Arch::K1024x2_8_32 => (1024, 8, 32),
            Arch::K1024x2_8_64 => (1024, 8, 64),
        }
    }

    /// The name YaneuraOu's build options and published nets use, as `halfkp_256x2-32-32`.
    pub fn name(self) -> String {
        let (ft, h1, h2) = self.dims();
        format!("halfkp_{ft}x2-{h1}-{h2}")
    }

    /// The member named `name` (as `name` writes it).
    pub fn from_name(name: &str) -> Option<Arch> {
        Arch::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The hash words of this architecture.
    pub const fn hashes(self) -> Hashes {
        let (ft, h1, h2) = self.dims();
        // HalfKP(Friend): the HalfKP constant with its lowest bit flipped, then the transformed
        // width (both perspectives).
        let transformer = (0x5D69_D5B9u32 ^ 1) ^ (2 * ft as u32);
        // The input slice takes all 2 * ft bytes from offset 0.
        let slice = 0xEC42_E90Du32 ^ (2 * ft as u32);
        let hidden1 = clipped_relu_hash(affine_hash(h1 as u32, slice));
        let hidden2 = clipped_relu_hash(affine_hash(h2 as u32, hidden1));
        let network = affine_hash(1, hidden2);
        Hashes { transformer, network, header: transformer ^ network }
    }

    /// The architecture string YaneuraOu's writers put in the header (the form of published
    /// nets: plain affine layers).
    pub fn string(self) -> String {
        let (ft, h1, h2) = self.dims();
        let inputs = 2 * ft;
        format!(
            "Features=HalfKP(Friend)[{INPUTS}->{ft}x2],Network=AffineTransform[1<-{h2}](ClippedReLU[{h2}](\
             AffineTransform[{h2}<-{h1}](ClippedReLU[{h1}](AffineTransform[{h1}<-{inputs}](InputSlice[{inputs}(0:{inputs})])))))"
        )
    }

    /// Whether an architecture string describes this member: HalfKP(Friend) features of this
    /// width, and hidden layers of these sizes (written with plain or sparse-input affine layers).
    fn is_named_by(self, text: &str) -> bool {
        let (ft, h1, h2) = self.dims();
        text.starts_with(&format!("Features=HalfKP(Friend)[{INPUTS}->{ft}x2],"))
            && text.contains(&format!("[1<-{h2}]"))
            && text.contains(&format!("[{h2}<-{h1}]"))
            && text.contains(&format!("[{h1}<-{}]", 2 * ft))
    }

    /// Bytes of a file of this architecture after its header (which is 12 bytes plus the
    /// architecture string).
    pub const fn body_len(self) -> usize {
        let (ft, h1, h2) = self.dims();
        let transformer = 4 + 2 * ft + 2 * INPUTS * ft;
        let layers = (4 * h1 + h1 * 2 * ft) + (4 * h2 + h2 * padded(h1)) + (4 + padded(h2));
        transformer + 4 + layers
    }
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Why a YaneuraOu NNUE file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// The first word is not `VERSION`.
    Version(u32),
    /// The file ends inside its header.
    Header,
    /// The architecture string is longer than `MAX_ARCH_STRING`.
    ArchStringLength(u32),
    /// The header's hash is none of the family this build reads: another architecture.
    Architecture {
        /// The architecture string found (printable ASCII only, shortened).
        found: String,
        /// The header's hash.
        hash: u32,
    },
    /// A hash word inside the file does not belong to the header's architecture.
    Hash {
        /// Which block's hash.
        block: &'static str,
        /// The architecture the header names.
        arch: Arch,
        /// The word the file holds.
        found: u32,
        /// The word that architecture has.
        expected: u32,
    },
    /// The file is shorter or longer than its architecture makes it.
    Length {
        /// The architecture the header names.
        arch: Arch,
        /// The bytes it needs.
        expected: usize,
        /// The bytes there are.
        found: usize,
    },
}

/// The family this build reads, for error messages.
fn supported() -> String {
    Arch::ALL.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Version(v) => write!(f, "not a YaneuraOu NNUE file (version word {v:#010x})"),
            FileError::Header => write!(f, "YaneuraOu NNUE file cut short inside its header"),
            FileError::ArchStringLength(n) => {
                write!(f, "architecture string of {n} bytes, at most {MAX_ARCH_STRING} allowed")
            }
            FileError::Architecture { found, hash } => write!(
                f,
                "architecture \"{found}\" (hash {hash:#010x}) is not one this build reads ({})",
                supported()
            ),
            FileError::Hash { block, arch, found, expected } => {
                write!(f, "{block} hash {found:#010x} where {arch} has {expected:#010x}: the file is damaged")
            }
            FileError::Length { arch, expected, found } => {
                let how = if found < expected { "cut short" } else { "longer than its architecture" };
                write!(f, "{arch} file of {found} bytes where it needs {expected}: {how}")
            }
        }
    }
}

impl std::error::Error for FileError {}

/// A file's header, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The architecture its hash names.
    pub arch: Arch,
    /// Its architecture string, as written (printable ASCII only).
    pub arch_string: String,
    /// The architecture string's bytes exactly as they are in the file: a net read from a file
    /// writes them back, so that it writes the file it was read from.
    pub arch_text: Vec<u8>,
    /// Where the body starts.
    pub body_start: usize,
}

/// Whether `bytes` start as a YaneuraOu NNUE file does.
pub fn is_yaneuraou_nnue(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) == VERSION
}

/// `text` with bytes other than printable ASCII made `?`, and cut to 300 characters.
fn shown(text: &[u8]) -> String {
    let mut s: String =
        text.iter().map(|&b| if (b' '..=b'~').contains(&b) { b as char } else { '?' }).collect();
    if s.len() > 300 {
        s.truncate(300);
        s.push_str("...");
    }
    s
}

/// Reads and checks the header of the file `bytes` (the whole file: its length is checked
/// against the architecture).
pub fn read_header(bytes: &[u8]) -> Result<Header, FileError> {
    let word = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")));
    let version = word(0).ok_or(FileError::Header)?;
    if version != VERSION {
        return Err(FileError::Version(version));
    }
    let (Some(hash), Some(len)) = (word(4), word(8)) else {
        return Err(FileError::Header);
    };
    if len as usize > MAX_ARCH_STRING {
        return Err(FileError::ArchStringLength(len));
    }
    let body_start = 12 + len as usize;
    let text = bytes.get(12..body_start).ok_or(FileError::Header)?;
    let arch_string = shown(text);
    let Some(arch) = Arch::ALL.into_iter().find(|a| a.hashes().header == hash) else {
        // A string naming a member of the family beside a hash of none: damage, not another
        // architecture.
        if let Some(arch) = Arch::ALL.into_iter().find(|a| a.is_named_by(&arch_string)) {
            return Err(FileError::Hash {
                block: "header",
                arch,
                found: hash,
                expected: arch.hashes().header,
            });
        }
        return Err(FileError::Architecture { found: arch_string, hash });
    };
    let expected = body_start + arch.body_len();
    if bytes.len() != expected {
        return Err(FileError::Length { arch, expected, found: bytes.len() });
    }
    let hashes = arch.hashes();
    let transformer = word(body_start).expect("length checked");
    if transformer != hashes.transformer {
        return Err(FileError::Hash {
            block: "feature transformer",
            arch,
            found: transformer,
            expected: hashes.transformer,
        });
    }
    let (ft, _, _) = arch.dims();
    let network_at = body_start + 4 + 2 * ft + 2 * INPUTS * ft;
    let network = word(network_at).expect("length checked");
    if network != hashes.network {
        return Err(FileError::Hash { block: "network", arch, found: network, expected: hashes.network });
    }
    Ok(Header { arch, arch_string, arch_text: text.to_vec(), body_start })
}

/// A cursor over a checked file's body.
pub(super) struct Reader<'a> {
    /// The whole file.
    bytes: &'a [u8],
    /// The offset of the next byte to read.
    at: usize,
}

impl<'a> Reader<'a> {
    /// A cursor at `at`.
    pub fn new(bytes: &'a [u8], at: usize) -> Reader<'a> {
        Reader { bytes, at }
    }

    /// The next `n` bytes; the caller has checked the length.
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        s
    }

    /// The next `u32`.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take(4).try_into().expect("4 bytes"))
    }

    /// The next `i32`.
    pub fn i32(&mut self) -> i32 {
        self.u32() as i32
    }

    /// The next `out.len()` `i16` values into `out`.
    pub fn i16s_into(&mut self, out: &mut [i16]) {
        let b = self.take(2 * out.len());
        for (o, c) in out.iter_mut().zip(b.chunks_exact(2)) {
            *o = i16::from_le_bytes([c[0], c[1]]);
        }
    }

    /// Whether every byte has been read.
    pub fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// Tests of the file header: hashes, sizes and architecture names.
#[cfg(test)]
mod tests {
    use super::*;

    /// The hashes the format notes computed from YaneuraOu's formulas, and the file sizes.
    #[test]
    fn hashes_and_sizes_are_yaneuraous() {
        let h = Arch::K256x2_32_32.hashes();
        assert_eq!((h.transformer, h.network, h.header), (0x5D69_D7B8, 0x6333_7156, 0x3E5A_A6EE));
        assert_eq!(Arch::K512x2_16_32.hashes().header, 0x3E5A_A772);
        assert_eq!(Arch::K1024x2_8_32.hashes().header, 0x3E5A_B7EC);
        assert_eq!(Arch::K1024x2_8_64.hashes().header, 0x3E5A_B79C);
        assert_eq!(Arch::K512x2_16_32.hashes().network, 0x6333_76CA);
        assert_eq!(Arch::K256x2_32_32.string().len(), 178);
        assert_eq!(12 + 178 + Arch::K256x2_32_32.body_len(), 64_217_066);
    }

    #[test]
    fn names_read_back() {
        for a in Arch::ALL {
            assert_eq!(Arch::from_name(&a.name()), Some(a));
        }
        assert_eq!(Arch::K256x2_32_32.name(), "halfkp_256x2-32-32");
        assert_eq!(Arch::from_name("halfkp_128x2-32-32"), None);
    }
}

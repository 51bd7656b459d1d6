//! Calibration to the provider's count: when a response reports the input tokens the
//! provider counted, the runner learns how they relate to its own count of the same
//! prompt, `provider = overhead + ratio × ours`, and bounds and reports prompts by that.
//! One number triggers the steps and is shown to the host, and it is close to the
//! provider's (its tokenizer may not be public, and it adds its own framing).
//!
//! The fit must never wedge a session, so it is bounded and robust:
//! - the ratio stays 1 until [`MIN_PAIRS`] pairs of samples far enough apart exist, and is
//!   then the median of their slopes (Theil–Sen), clamped to [`MIN_RATIO`]..=[`MAX_RATIO`]:
//!   one odd sample, or a host whose fixed overhead jumps mid-session, cannot swing it;
//! - the overhead is the largest shortfall of the newest [`RECENT`] samples: it follows a
//!   growing overhead at once, and a shrinking one within [`RECENT`] samples;
//! - it may make the count of text stricter without limit, never looser ([`MIN_RATIO`] is
//!   1): the ratio is fitted on requests of one make-up (many small messages, or one long
//!   summary) and applied to the next, which may be of another: a provider that counts
//!   fewer tokens than we do cannot let a request grow past the budget by our count;
//! - a report that cannot be about the request it answers is set aside, not learned from:
//!   zero, under half our count, or the same number again for a request of another size (a
//!   stand-in usage that never changes);
//! - images and documents are fitted apart from text (`provider = overhead + ratio × text +
//!   media_ratio × media`): a provider that bills an image otherwise than its rule says (a
//!   high-resolution model, a rule changed) moves the media ratio, not the text's, so a
//!   misjudged image never loosens the count of text. The text ratio is fitted from pairs
//!   of samples whose media barely differ, the media ratio from those whose media do.

use std::collections::VecDeque;

use crate::base::args::non_negative;
use devs_context_errors::FieldError;

/// Observations kept: the fit follows a provider that changes (a new model, a new system prompt).
pub const SAMPLES: usize = 32;
/// The fitted ratio stays in this range: a wild report cannot make the bound meaningless,
/// and the count of text never loosens (a count under the bill breaks the bound).
pub const MIN_RATIO: f64 = 1.0;
pub const MAX_RATIO: f64 = 2.0;
/// No ratio other than 1 is fitted from fewer pairs of samples than this.
pub const MIN_PAIRS: usize = 6;
/// Two samples make a pair only when their counts differ by at least this share.
pub const MIN_SPREAD: f64 = 0.05;
/// The overhead covers the provider's count of each of the newest samples.
pub const RECENT: usize = 4;
/// The media ratio stays in this range: a provider may bill an image up to about three
/// times the common rule (Anthropic's high-resolution models), and a usage that leaves
/// images out cannot make them count for nothing.
pub const MIN_MEDIA_RATIO: f64 = 0.5;
pub const MAX_MEDIA_RATIO: f64 = 4.0;
/// Once calibrated, the count stays this share above the fit: the fit extrapolates from
/// past requests to the next, and a count under the bill is the one error the bound
/// cannot take, while 1% more is a request 1% smaller.
pub const MARGIN: f64 = 0.01;
/// Two samples' media barely differ when they differ by at most this share of their text's
/// difference: such a pair tells the text ratio.
const MEDIA_STILL: f64 = 0.02;

/// One report: our count of the request's text and of its images and documents, and the
/// provider's count of the whole.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub text: f64,
    pub media: f64,
    pub reported: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    samples: VecDeque<Sample>,
    pub overhead: f64,
    pub ratio: f64,
    pub media_ratio: f64,
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration {
            samples: VecDeque::new(),
            overhead: 0.0,
            ratio: 1.0,
            media_ratio: 1.0,
        }
    }
}

/// The median of `v` (sorted here), or `None` for fewer than [`MIN_PAIRS`] values.
fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.len() < MIN_PAIRS {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    })
}

impl Calibration {
    /// The observations kept, oldest first: with `overhead` and the ratios, the whole state.
    pub fn observations(&self) -> impl Iterator<Item = Sample> + '_ {
        self.samples.iter().copied()
    }

    /// A calibration as it was: its observations (at most [`SAMPLES`]), overhead and ratios.
    pub fn from_parts(
        observations: Vec<Sample>,
        overhead: f64,
        ratio: f64,
        media_ratio: f64,
    ) -> Calibration {
        let mut samples: VecDeque<Sample> = observations.into();
        while samples.len() > SAMPLES {
            samples.pop_front();
        }
        Calibration {
            samples,
            overhead,
            ratio: ratio.clamp(MIN_RATIO, MAX_RATIO),
            media_ratio: media_ratio.clamp(MIN_MEDIA_RATIO, MAX_MEDIA_RATIO),
        }
    }

    pub fn samples(&self) -> usize {
        self.samples.len()
    }

    /// The share the count stays above the fit: [`MARGIN`] once a report was learned from.
    fn scale(&self) -> f64 {
        if self.samples.is_empty() {
            1.0
        } else {
            1.0 + MARGIN
        }
    }

    /// The provider's count of a prompt of text we count as `ours` (no media).
    pub fn predict(&self, ours: f64) -> f64 {
        self.scale() * (self.overhead + self.ratio * ours)
    }

    /// The provider's count of a prompt we count as `text` and `media` tokens.
    pub fn predict_split(&self, text: f64, media: f64) -> f64 {
        self.scale() * (self.overhead + self.ratio * text + self.media_ratio * media)
    }

    /// Our tokens that make `provider` of the provider's (for a difference of counts).
    pub fn ours_for(&self, provider: f64) -> f64 {
        provider / (self.scale() * self.ratio)
    }

    /// Forgets every sample: the provider is counted as we count.
    pub fn reset(&mut self) {
        *self = Calibration::default();
    }

    /// Learns from a prompt we counted as `ours` (its images and documents `media`, the rest
    /// text) that the provider counted as `reported` (`usage.inputTokens`). `Ok(false)`: the
    /// report was set aside, as one that cannot be about that prompt.
    pub fn observe(&mut self, ours: f64, media: f64, reported: f64) -> Result<bool, FieldError> {
        let reported = non_negative("usage.inputTokens", reported)?;
        if ours <= 0.0 {
            return Ok(true);
        }
        if !self.plausible(ours, reported) {
            return Ok(false);
        }
        if self.samples.len() == SAMPLES {
            self.samples.pop_front();
        }
        let media = media.clamp(0.0, ours);
        self.samples.push_back(Sample {
            text: ours - media,
            media,
            reported,
        });
        self.fit();
        Ok(true)
    }

    /// Whether `reported` can be the provider's count of a prompt we count as `ours`.
    fn plausible(&self, ours: f64, reported: f64) -> bool {
        if reported <= 0.0 || reported < ours * 0.5 {
            return false;
        }
        // The same count again for a prompt of another size: a usage that never changes.
        !self.samples.back().is_some_and(|s| {
            let x = s.text + s.media;
            s.reported == reported && (x - ours).abs() >= MIN_SPREAD * x.max(ours)
        })
    }

    /// The text ratio from pairs whose text differs, their media counted at `media_ratio`;
    /// `still`: only pairs whose media barely differ.
    fn text_ratio(&self, media_ratio: f64, still: bool) -> Option<f64> {
        let mut slopes = Vec::new();
        for (i, a) in self.samples.iter().enumerate() {
            for b in self.samples.iter().skip(i + 1) {
                let (dt, dm, dy) = (b.text - a.text, b.media - a.media, b.reported - a.reported);
                // Pairs of the same text say nothing of its ratio (and would divide by 0).
                if dt == 0.0
                    || dt.abs() < MIN_SPREAD * a.text.max(b.text)
                    || (still && dm.abs() > MEDIA_STILL * dt.abs())
                {
                    continue;
                }
                slopes.push((dy - media_ratio * dm) / dt);
            }
        }
        median(slopes).map(|r| r.clamp(MIN_RATIO, MAX_RATIO))
    }

    /// The media ratio from pairs whose media differ, their text counted at `ratio`.
    fn media_ratio_at(&self, ratio: f64) -> Option<f64> {
        let mut slopes = Vec::new();
        for (i, a) in self.samples.iter().enumerate() {
            for b in self.samples.iter().skip(i + 1) {
                let (dt, dm, dy) = (b.text - a.text, b.media - a.media, b.reported - a.reported);
                // Pairs of the same media (none, often) say nothing of its ratio.
                if dm == 0.0
                    || dm.abs() < MIN_SPREAD * a.media.max(b.media)
                    || dm.abs() < MEDIA_STILL * dt.abs()
                {
                    continue;
                }
                slopes.push((dy - ratio * dt) / dm);
            }
        }
        median(slopes).map(|r| r.clamp(MIN_MEDIA_RATIO, MAX_MEDIA_RATIO))
    }

    fn fit(&mut self) {
        // The text ratio where media stay still, then the media ratio against it, then the
        // text ratio again against that: a misjudged image moves the media ratio alone.
        let text = self
            .text_ratio(self.media_ratio, true)
            .or_else(|| self.text_ratio(self.media_ratio, false))
            .unwrap_or(1.0);
        self.media_ratio = self.media_ratio_at(text).unwrap_or(1.0);
        self.ratio = self.text_ratio(self.media_ratio, false).unwrap_or(text);
        let (ratio, media_ratio) = (self.ratio, self.media_ratio);
        self.overhead = self
            .samples
            .iter()
            .rev()
            .take(RECENT)
            .map(|s| s.reported - ratio * s.text - media_ratio * s.media)
            .fold(0.0, f64::max);
    }
}

#[cfg(test)]
#[path = "tests/calibration.rs"]
mod tests;

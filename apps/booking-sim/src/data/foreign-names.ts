/**
 * Guests from abroad. Most are written in Latin letters with no katakana reading; guests from
 * Taiwan, Hong Kong, mainland China and Korea are written in their own script, which a Japanese
 * system stores as it comes.
 */
export interface TForeignOrigin {
  country: string;
  /** A mobile number as written in international form; each # is a digit. */
  phonePattern: string;
  script: 'latin' | 'han' | 'hangul';
  familyNames: readonly string[];
  maleNames: readonly string[];
  femaleNames: readonly string[];
  /** Cities and a street in each, in the same order. */
  cities: readonly string[];
  streets: readonly string[];
  weight: number;
}

const ENGLISH_FAMILY = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Taylor', 'Anderson',
  'Thomas', 'Moore', 'Martin', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Walker', 'Hall',
  'Young', 'King', 'Wright', 'Scott', 'Green', 'Baker', 'Adams', 'Nelson', 'Carter', 'Mitchell',
  "O'Brien", 'MacDonald',
];
const ENGLISH_MALE = ['James', 'John', 'Robert', 'Michael', 'David', 'William', 'Daniel', 'Matthew', 'Andrew', 'Chris', 'Ryan', 'Oliver', 'Jack', 'Liam', 'Noah', 'Ethan'];
const ENGLISH_FEMALE = ['Mary', 'Emily', 'Sarah', 'Jessica', 'Emma', 'Olivia', 'Sophie', 'Hannah', 'Grace', 'Chloe', 'Amelia', 'Laura', 'Rachel', 'Megan', 'Zoe', 'Ava'];

export const FOREIGN_ORIGINS: readonly TForeignOrigin[] = [
  {
    country: 'US', phonePattern: '+1 415-###-####', script: 'latin', weight: 24,
    familyNames: ENGLISH_FAMILY, maleNames: ENGLISH_MALE, femaleNames: ENGLISH_FEMALE,
    cities: ['San Francisco', 'New York', 'Seattle', 'Los Angeles', 'Honolulu', 'Chicago'],
    streets: ['Market St', 'Broadway', 'Pine St', 'Sunset Blvd', 'Kalakaua Ave', 'Lake Shore Dr'],
  },
  {
    country: 'AU', phonePattern: '+61 4## ### ###', script: 'latin', weight: 14,
    familyNames: ENGLISH_FAMILY, maleNames: ENGLISH_MALE, femaleNames: ENGLISH_FEMALE,
    cities: ['Sydney', 'Melbourne', 'Brisbane', 'Perth'],
    streets: ['George St', 'Collins St', 'Queen St', 'Hay St'],
  },
  {
    country: 'GB', phonePattern: '+44 7### ######', script: 'latin', weight: 10,
    familyNames: ENGLISH_FAMILY, maleNames: ENGLISH_MALE, femaleNames: ENGLISH_FEMALE,
    cities: ['London', 'Manchester', 'Edinburgh', 'Bristol'],
    streets: ['Baker Street', 'High Street', 'Victoria Road', 'Church Lane'],
  },
  {
    country: 'CA', phonePattern: '+1 604-###-####', script: 'latin', weight: 6,
    familyNames: ENGLISH_FAMILY, maleNames: ENGLISH_MALE, femaleNames: ENGLISH_FEMALE,
    cities: ['Vancouver', 'Toronto', 'Montréal'],
    streets: ['Robson St', 'Yonge St', 'Rue Sainte-Catherine'],
  },
  {
    country: 'FR', phonePattern: '+33 6 ## ## ## ##', script: 'latin', weight: 5,
    familyNames: ['Martin', 'Bernard', 'Dubois', 'Lefèvre', 'Moreau', 'Laurent', 'Girard', 'Roux'],
    maleNames: ['Lucas', 'Hugo', 'Louis', 'Théo', 'Antoine'], femaleNames: ['Camille', 'Léa', 'Chloé', 'Manon', 'Inès'],
    cities: ['Paris', 'Lyon', 'Marseille'],
    streets: ['Rue de Rivoli', 'Boulevard Haussmann', 'Rue de la République'],
  },
  {
    country: 'DE', phonePattern: '+49 151 ########', script: 'latin', weight: 5,
    familyNames: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Becker', 'Hoffmann'],
    maleNames: ['Lukas', 'Felix', 'Jonas', 'Maximilian', 'Paul'], femaleNames: ['Anna', 'Lena', 'Marie', 'Sophie', 'Lea'],
    cities: ['Berlin', 'München', 'Hamburg'],
    streets: ['Friedrichstraße', 'Leopoldstraße', 'Mönckebergstraße'],
  },
  {
    country: 'SG', phonePattern: '+65 9### ####', script: 'latin', weight: 8,
    familyNames: ['Tan', 'Lim', 'Lee', 'Ng', 'Wong', 'Goh', 'Chua'],
    maleNames: ['Wei Jie', 'Jun Hao', 'Marcus', 'Ryan', 'Darren'], femaleNames: ['Hui Min', 'Xin Yi', 'Rachel', 'Michelle', 'Jia Hui'],
    cities: ['Singapore'],
    streets: ['Orchard Road', 'Tampines Ave 5', 'Bukit Timah Road'],
  },
  {
    country: 'TW', phonePattern: '+886 9## ### ###', script: 'han', weight: 12,
    familyNames: ['陳', '林', '黃', '張', '李', '王', '吳', '劉'],
    maleNames: ['志明', '建宏', '俊傑', '冠宇', '家豪'], femaleNames: ['美玲', '淑芬', '雅婷', '怡君', '佳穎'],
    cities: ['台北市', '台中市', '高雄市'],
    streets: ['忠孝東路四段', '中山北路二段', '民生東路三段'],
  },
  {
    country: 'HK', phonePattern: '+852 9### ####', script: 'han', weight: 6,
    familyNames: ['陳', '李', '張', '黃', '何'],
    maleNames: ['嘉豪', '志偉', '俊賢'], femaleNames: ['詠詩', '嘉欣', '凱琳'],
    cities: ['Hong Kong'],
    streets: ['Nathan Road', "Queen's Road Central", 'Hennessy Road'],
  },
  {
    country: 'CN', phonePattern: '+86 138 #### ####', script: 'han', weight: 4,
    familyNames: ['王', '李', '张', '刘', '陈'],
    maleNames: ['伟', '强', '磊', '浩然'], femaleNames: ['静', '丽', '芳', '婷'],
    cities: ['上海市', '北京市', '广州市'],
    streets: ['南京东路', '长安街', '天河路'],
  },
  {
    country: 'KR', phonePattern: '+82 10-####-####', script: 'hangul', weight: 10,
    familyNames: ['김', '이', '박', '최', '정', '강'],
    maleNames: ['민준', '서준', '도윤', '지호'], femaleNames: ['서연', '지우', '하은', '민서'],
    cities: ['서울', '부산'],
    streets: ['세종대로', '해운대로', '테헤란로'],
  },
];

/** Latin spellings used for email local parts of guests written in Han or Hangul. */
export const ROMANISED_FAMILY: Readonly<Record<string, string>> = {
  陳: 'chen', 林: 'lin', 黃: 'huang', 張: 'zhang', 李: 'li', 王: 'wang', 吳: 'wu', 劉: 'liu', 何: 'ho',
  张: 'zhang', 刘: 'liu', 陈: 'chen', 김: 'kim', 이: 'lee', 박: 'park', 최: 'choi', 정: 'jung', 강: 'kang',
};
